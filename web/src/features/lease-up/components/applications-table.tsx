import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { ApplicationRow } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import { useLeaseUpLabels } from './labels';
import { StatusBadge } from './status-badge';

/**
 * Spec section 2: log number, opportunity name, date applied, status, actions (view details); a
 * manager's list names the applicant too.
 */
export function ApplicationsTable({ rows, title, withApplicant = false }: { rows: ApplicationRow[]; title?: string; withApplicant?: boolean }) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={title ?? t('list.title')}>
      <table>
        <caption className="visually-hidden">{title ?? t('list.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('columns.logNumber')}</th>
            {withApplicant ? <th scope="col">{t('columns.applicant')}</th> : null}
            <th scope="col">{t('columns.opportunity')}</th>
            <th scope="col">{t('columns.dateApplied')}</th>
            <th scope="col">{t('columns.status')}</th>
            <th scope="col">{t('columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.applicationId}>
              <th scope="row">{labels.logNumber(row.logNumber)}</th>
              {withApplicant ? <td>{row.applicantFullName}</td> : null}
              <td>{row.opportunityName}</td>
              <td>{formatDate(row.dateApplied)}</td>
              <td>
                <StatusBadge status={row.status} />
              </td>
              <td>
                <Link
                  to={paths.app.application.getHref(row.applicationId)}
                  aria-label={t('list.viewDetailsOf', { name: row.opportunityName, log: labels.logNumber(row.logNumber) })}
                >
                  {t('list.viewDetails')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
