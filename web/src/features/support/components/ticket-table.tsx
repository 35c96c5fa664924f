import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { SupportTicketListItem } from '../../../lib/domain';

/** A page of tickets: the requester's own, or the staff queue (with who asked and whether it is late). */
export function TicketTable({ rows, staff, hrefOf }: { rows: SupportTicketListItem[]; staff: boolean; hrefOf: (id: string) => string }) {
  const { t, i18n } = useTranslation('support');
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t('list.caption')}>
      <table>
        <caption className="visually-hidden">{t('list.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('list.subject')}</th>
            {staff ? <th scope="col">{t('list.requester')}</th> : null}
            <th scope="col">{t('list.category')}</th>
            <th scope="col">{t('list.status')}</th>
            <th scope="col">{t('list.lastActivity')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.ticketId}>
              <th scope="row">
                <Link to={hrefOf(r.ticketId)}>{r.subject}</Link>
              </th>
              {staff ? <td>{r.requesterName}</td> : null}
              <td>{t(`categories.${r.category}`)}</td>
              <td>
                {t(`statuses.${r.status}`)}
                {staff && r.escalated ? <span className="badge badge-urgent"> {t('list.escalated')}</span> : null}
              </td>
              <td>{when(r.lastActivityAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
