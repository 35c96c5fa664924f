import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { ApplicationRow } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import { useLeaseUpLabels } from './labels';
import { StatusBadge } from './status-badge';

function PendingTasks({ row }: { row: ApplicationRow }) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  const mine = row.pendingTasks.filter((task) => task.role === 'manager');
  if (mine.length > 0) {
    return (
      <div>
        <span className="badge badge-urgent">{t('tasks.waitingForYou')}</span>
        <ul className="task-list">
          {mine.map((task) => (
            <li key={task.action}>
              {labels.action(task.action)}
              {task.dueAt ? ` ${t('tasks.due', { date: formatDate(task.dueAt) })}` : ''}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (row.pendingTasks.length > 0) return <span className="muted">{t('tasks.waitingForApplicant')}</span>;
  return <span className="muted">{t('tasks.noTasks')}</span>;
}

/** The manager inbox rows; each opens the shared detail page, where viewerRole picks the buttons. */
export function TaskTable({ rows }: { rows: ApplicationRow[] }) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">{t('tasks.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('columns.logNumber')}</th>
            <th scope="col">{t('columns.opportunity')}</th>
            <th scope="col">{t('columns.applicant')}</th>
            <th scope="col">{t('columns.dateApplied')}</th>
            <th scope="col">{t('columns.step')}</th>
            <th scope="col">{t('columns.status')}</th>
            <th scope="col">{t('columns.tasks')}</th>
            <th scope="col">{t('columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.applicationId}>
              <th scope="row">{labels.logNumber(row.logNumber)}</th>
              <td>{row.opportunityName}</td>
              <td>{row.applicantFullName}</td>
              <td>{formatDate(row.dateApplied)}</td>
              <td>{labels.step(row.currentStep)}</td>
              <td>
                <StatusBadge status={row.status} />
              </td>
              <td>
                <PendingTasks row={row} />
              </td>
              <td>
                <Link
                  className="button button-secondary"
                  to={paths.app.application.getHref(row.applicationId)}
                  aria-label={t('tasks.openOf', { name: row.applicantFullName, log: labels.logNumber(row.logNumber) })}
                >
                  {t('tasks.open')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
