import { useTranslation } from 'react-i18next';
import { whoseMove, type CaseKind, type CaseViewer, type WhoseMoveInput } from '../lib/domain';

/**
 * The one sentence at the top of every case page saying whose move it is and what it is, or what
 * happened once the case is over, made by `whoseMove` from the case view's pending tasks.
 */
export function WhoseMoveSentence({ kind, viewer, status, pendingTasks }: WhoseMoveInput) {
  const { t } = useTranslation('caseProgress');
  const move = whoseMove({ kind, viewer, status, pendingTasks });
  const text = useWhoseMoveText()(move, kind, viewer);
  return (
    <p className={`whose-move${move.whose === 'done' ? ' whose-move-final' : ''}`} data-testid="whose-move" role="status">
      {text || t('nobody.inProgress.person')}
    </p>
  );
}

/** The sentence's words in the reader's language (keys of the `caseProgress` namespace). */
export function useWhoseMoveText() {
  const { t } = useTranslation('caseProgress');
  // Keys are built from the domain's task and outcome names; an unknown one falls back to "nothing to do".
  const text = (key: string) => t(key as never, { defaultValue: '' }) as string;
  return (move: ReturnType<typeof whoseMove>, kind: CaseKind, viewer: CaseViewer): string => {
    if (move.whose === 'done') return text(`done.${move.outcome}.${viewer}`);
    if (move.whose === 'nobody') return text(`nobody.${move.reason}.${viewer}`) || text(`nobody.inProgress.${viewer}`);
    const task = text(`${kind}.${move.task}.${viewer}`);
    return task ? (t(`move.${move.whose}`, { task }) as string) : text(`nobody.inProgress.${viewer}`);
  };
}
