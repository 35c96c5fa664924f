import { useTranslation } from 'react-i18next';
import { TIMELINE_STEPS, type StepState, type TimelineEntry } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import { useLeaseUpLabels } from './labels';

const MARKS: Record<StepState, string> = { complete: '✓', current: '●', pending: '○', skipped: '–' };

/** Spec section 4: each step of the application, complete, current, pending or skipped, with its date. */
export function Timeline({ entries }: { entries: TimelineEntry[] }) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  const ordered = [...entries].sort((a, b) => TIMELINE_STEPS.indexOf(a.step) - TIMELINE_STEPS.indexOf(b.step));
  // A step not reached yet and not needed so far (screening consent until the manager asks for it)
  // reads "Only if needed", not "Skipped": it may still happen.
  const reached = ordered.reduce((last, entry, index) => (entry.state === 'complete' || entry.state === 'current' ? index : last), -1);
  const stateText = (entry: TimelineEntry, index: number) =>
    entry.state === 'skipped' && index > reached ? t('stepState.ifNeeded') : labels.stepState(entry.state);
  return (
    <section className="panel" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">{t('detail.timeline')}</h2>
      <ol className="timeline">
        {ordered.map((entry, index) => (
          <li
            key={entry.step}
            className={`timeline-step timeline-${entry.state}`}
            aria-current={entry.state === 'current' ? 'step' : undefined}
          >
            <span className="timeline-mark" aria-hidden="true">
              {MARKS[entry.state]}
            </span>
            <span className="timeline-name">{labels.step(entry.step)}</span>
            <span className="timeline-state">{stateText(entry, index)}</span>
            {entry.at ? <time dateTime={entry.at}>{formatDate(entry.at)}</time> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
