import { useTranslation } from 'react-i18next';
import { TranslatableText } from '../../../components/translatable-text';
import { useToast } from '../../../components/ui/toast';
import type { ApplicationDetail } from '../../../lib/domain';
import { formatDate, formatDateTime, formatMoney } from '../../../lib/format';
import { openLetter } from '../api/letters';
import { useLeaseUpLabels } from './labels';

const when = (iso: string) => formatDateTime(iso, 'full');

/**
 * What the application holds now, from the workflow's view: documents asked for, the appointment,
 * unit offers, letters and their signatures, the appeal, and each role's pending tasks with due dates.
 */
export function ApplicationProgress({ application: a }: { application: ApplicationDetail }) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  const toast = useToast();
  const show = (kind: 'tic' | 'lease') => openLetter(a.applicationId, kind).catch(() => toast.showError(t('progress.letterError')));
  const myTasks = a.pendingTasks.filter((task) => task.role === a.viewerRole);

  return (
    <section className="panel" aria-labelledby="progress-heading">
      <h2 id="progress-heading">{t('progress.title')}</h2>
      {myTasks.length > 0 ? (
        <>
          <h3>{t('progress.tasks')}</h3>
          <ul data-testid="pending-tasks">
            {myTasks.map((task) => (
              <li key={task.action}>
                {labels.task(task.action)}
                {task.dueAt ? ` — ${t('progress.dueBy', { date: formatDate(task.dueAt) })}` : ''}
                {task.overdue ? <span className="badge badge-urgent"> {t('progress.overdue')}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {a.viewerRole === 'manager' ? (
        <p>
          {t('progress.household', { size: a.householdSize, income: formatMoney(a.householdIncome) })}{' '}
          {a.incomeFit ? <strong>{t(`progress.fit.${a.incomeFit}`)}</strong> : null}
        </p>
      ) : null}
      {a.consent !== 'not_requested' ? <p>{t(`progress.consent.${a.consent}`)}</p> : null}
      {a.outstandingDocuments.length > 0 ? (
        <>
          <h3>{t('progress.documents')}</h3>
          <ul>
            {a.outstandingDocuments.map((d) => (
              <li key={d.item}>
                {d.item}
                {d.reason ? (
                  <>
                    {' — '}
                    <TranslatableText text={d.reason} />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          {a.documentsNote ? <TranslatableText as="p" text={a.documentsNote} /> : null}
          {a.documentsDueAt ? <p>{t('progress.dueBy', { date: formatDate(a.documentsDueAt) })}</p> : null}
        </>
      ) : null}
      {a.appointmentAt ? <p data-testid="appointment">{t('progress.appointment', { date: when(a.appointmentAt) })}</p> : null}
      {a.offers.length > 0 ? (
        <>
          <h3>{t('progress.offers')}</h3>
          <ul data-testid="offers">
            {a.offers.map((o) => (
              <li key={o.offerId}>
                {t('progress.offerUnit', { number: o.unitNumber, type: o.bedroomType, address: o.address })} —{' '}
                {t(`progress.offerStatus.${o.status}`)}
                {o.status === 'open' ? ` (${t('progress.expires', { date: formatDate(o.expiresAt) })})` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {a.tic || a.leaseLetter ? (
        <div className="action-buttons">
          {a.tic ? (
            <button type="button" className="button button-secondary" onClick={() => void show('tic')}>
              {t('progress.viewTic')} {a.tic.signatures.length ? `(${t('progress.signed')})` : ''}
            </button>
          ) : null}
          {a.leaseLetter ? (
            <button type="button" className="button button-secondary" onClick={() => void show('lease')}>
              {t('progress.viewLease')} {a.leaseLetter.signatures.length ? `(${t('progress.signed')})` : ''}
            </button>
          ) : null}
        </div>
      ) : null}
      {a.status === 'rejected' && a.appealDeadline ? <p>{t('progress.appealBy', { date: formatDate(a.appealDeadline) })}</p> : null}
      {a.appealReason ? <p>{t('progress.appealReason', { reason: a.appealReason })}</p> : null}
    </section>
  );
}
