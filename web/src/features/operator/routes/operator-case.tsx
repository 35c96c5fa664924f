import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { OperatorCaseParams, operatorWorkflowId, type OperatorHistory, type WorkflowCaseKind } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { formatDateTime } from '../../../lib/format';
import { useCaseAction, useCaseHistory, useExportHistory, useRevealHistory, type CaseAction } from '../api/operator';
import { OperatorAuditLog } from '../components/audit-log';
import { ReasonDialog } from '../components/reason-dialog';

type Open = 'reveal' | 'export' | 'exportEncoded' | CaseAction | null;

/** /operator/cases/:kind/:id: one case's history as a timeline, its export, and the operator's actions. */
export function OperatorCaseRoute() {
  const { t } = useTranslation('operator');
  usePageTitle(t('case.title'));
  const parsed = OperatorCaseParams.safeParse(useParams());
  if (!parsed.success) {
    return (
      <div className="page">
        <h1>{t('case.title')}</h1>
        <LoadError title={t('case.loadError')} detail="" />
      </div>
    );
  }
  return <OperatorCase key={`${parsed.data.kind}/${parsed.data.id}`} kind={parsed.data.kind} caseId={parsed.data.id} />;
}

function OperatorCase({ kind, caseId }: { kind: WorkflowCaseKind; caseId: string }) {
  const { t } = useTranslation('operator');
  const toast = useToast();
  const errorText = useErrorText();
  const ids = { timeline: useId(), audit: useId(), resetTo: useId(), status: useId() };
  const workflowId = operatorWorkflowId({ kind, id: caseId });
  const history = useCaseHistory(kind, caseId);
  const reveal = useRevealHistory(kind, caseId);
  const exportHistory = useExportHistory(kind, caseId);
  const action = useCaseAction(kind, caseId);
  const [open, setOpen] = useState<Open>(null);
  const [revealed, setRevealed] = useState<OperatorHistory | null>(null);
  const [resetTo, setResetTo] = useState<number | null>(null);
  const shown = revealed ?? history.data;
  const onError = (error: unknown) => toast.showError(errorText(error));
  const close = () => setOpen(null);

  const confirm = (reason: string) => {
    if (open === 'reveal') {
      reveal.mutate({ reason }, { onSuccess: (h) => { setRevealed(h); close(); }, onError });
    } else if (open === 'exportEncoded') {
      // The encoded file is readable through the codec: it needs a reason, like a reveal.
      exportHistory.mutate({ format: 'encoded', reason }, { onSuccess: () => { toast.showSuccess(t('done.export')); close(); }, onError });
    } else if (open === 'export') {
      exportHistory.mutate({ format: 'decoded', ...(reason ? { reason } : {}) }, { onSuccess: () => { toast.showSuccess(t('done.export')); close(); }, onError });
    } else if (open) {
      const chosen = open;
      const eventId = resetTo ?? shown?.resetPoints.at(-1);
      action.mutate(
        { action: chosen, reason, ...(chosen === 'reset' && eventId ? { eventId } : {}) },
        { onSuccess: () => { toast.showSuccess(t(`done.${chosen}`)); setRevealed(null); close(); }, onError },
      );
    }
  };

  return (
    <div className="page">
      <p>
        <Link to={paths.operator.console.getHref()}>{t('case.back')}</Link>
      </p>
      <h1>
        {t('case.title')}: {t(`kinds.${kind}`)} <code>{workflowId}</code>
      </h1>
      <div className="operator-actions" role="group" aria-label={t('case.title')}>
        <button type="button" className="button button-primary" onClick={() => setOpen('reveal')} disabled={revealed !== null}>
          {t('case.reveal')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen('exportEncoded')}>
          {t('case.exportEncoded')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen('export')}>
          {t('case.exportDecoded')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen('retry')}>
          {t('case.retry')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen('reset')}>
          {t('case.reset')}
        </button>
        <button type="button" className="button button-danger" onClick={() => setOpen('terminate')}>
          {t('case.terminate')}
        </button>
      </div>
      <p id={ids.status} role="status" className="notice">
        {shown && !shown.redacted ? t('case.revealed') : t('case.redacted')}
      </p>

      <section aria-labelledby={ids.timeline}>
        <h2 id={ids.timeline}>{t('case.timeline')}</h2>
        {history.isPending ? (
          <Loading />
        ) : history.isError ? (
          <LoadError title={t('case.loadError')} detail={errorText(history.error)} onRetry={() => void history.refetch()} />
        ) : (
          <ol className="operator-timeline">
            {(shown?.events ?? []).map((e) => (
              <li key={e.eventId}>
                <p>
                  <strong>{t('case.event', { id: e.eventId })}</strong> {e.type}
                  {e.name ? ` (${e.name})` : ''} <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                </p>
                {e.failure ? <p>{t('case.failure', { message: e.failure })}</p> : null}
                {e.payloads.length > 0 ? (
                  e.payloads.map((p, i) => (
                    <pre key={i} className="operator-payload" tabIndex={0} aria-label={`${t('case.event', { id: e.eventId })} ${i + 1}`}>
                      {JSON.stringify(p, null, 2)}
                    </pre>
                  ))
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>

      <OperatorAuditLog workflowId={workflowId} headingId={ids.audit} />

      <ReasonDialog open={open === 'reveal'} title={t('dialog.revealTitle')} busy={reveal.isPending} onClose={close} onConfirm={confirm} />
      <ReasonDialog open={open === 'exportEncoded'} title={t('dialog.exportEncodedTitle')} busy={exportHistory.isPending} onClose={close} onConfirm={confirm} />
      <ReasonDialog open={open === 'export'} title={t('dialog.exportTitle')} hint={t('dialog.exportHint')} optional busy={exportHistory.isPending} onClose={close} onConfirm={confirm} />
      <ReasonDialog open={open === 'retry'} title={t('dialog.retryTitle')} busy={action.isPending} onClose={close} onConfirm={confirm} />
      <ReasonDialog open={open === 'terminate'} title={t('dialog.terminateTitle')} busy={action.isPending} onClose={close} onConfirm={confirm} />
      <ReasonDialog open={open === 'reset'} title={t('dialog.resetTitle')} busy={action.isPending} onClose={close} onConfirm={confirm}>
        <div className="field">
          <label htmlFor={ids.resetTo}>{t('dialog.resetTo')}</label>
          <select id={ids.resetTo} value={resetTo ?? shown?.resetPoints.at(-1) ?? ''} onChange={(e) => setResetTo(Number(e.target.value))}>
            {(shown?.resetPoints ?? []).map((p) => (
              <option key={p} value={p}>
                {t('case.event', { id: p })}
              </option>
            ))}
          </select>
        </div>
      </ReasonDialog>
    </div>
  );
}
