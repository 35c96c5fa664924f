import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { SUPPORT_TICKET_CATEGORIES, SUPPORT_TICKET_STATUSES } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { useTicketEvents } from '../api/ticket-events';
import { useTickets, type TicketFilters } from '../api/support-tickets';
import { TicketTable } from '../components/ticket-table';

/** /manager/support-tickets: the organisation's queue (every ticket for an admin), filtered and paged. */
export function ManagerSupportTicketsRoute() {
  const { t } = useTranslation('support');
  usePageTitle(t('queue.title'));
  const errorText = useErrorText();
  const ids = { status: useId(), category: useId(), mine: useId(), late: useId() };
  const [filters, setFilters] = useState<TicketFilters>({ status: 'open' });
  // New tickets and answers arrive live; the list polls only while the stream is down.
  useTicketEvents();
  const tickets = useTickets(filters);
  const rows = tickets.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="page">
      <h1>{t('queue.title')}</h1>
      <div className="filters">
        <div className="field field-inline">
          <label htmlFor={ids.status}>{t('list.status')}</label>
          <select id={ids.status} value={filters.status ?? ''} onChange={(e) => setFilters({ ...filters, status: e.target.value || undefined })}>
            <option value="">{t('queue.all')}</option>
            <option value="open">{t('queue.open')}</option>
            {SUPPORT_TICKET_STATUSES.map((s) => (
              <option key={s} value={s}>{t(`statuses.${s}`)}</option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={ids.category}>{t('list.category')}</label>
          <select id={ids.category} value={filters.category ?? ''} onChange={(e) => setFilters({ ...filters, category: e.target.value || undefined })}>
            <option value="">{t('queue.all')}</option>
            {SUPPORT_TICKET_CATEGORIES.map((c) => (
              <option key={c} value={c}>{t(`categories.${c}`)}</option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <input id={ids.mine} type="checkbox" checked={Boolean(filters.assignedToMe)} onChange={(e) => setFilters({ ...filters, assignedToMe: e.target.checked })} />
          <label htmlFor={ids.mine}>{t('queue.assignedToMe')}</label>
        </div>
        <div className="field field-inline">
          <input id={ids.late} type="checkbox" checked={Boolean(filters.escalated)} onChange={(e) => setFilters({ ...filters, escalated: e.target.checked })} />
          <label htmlFor={ids.late}>{t('queue.escalatedOnly')}</label>
        </div>
      </div>
      {tickets.isPending ? (
        <Loading />
      ) : tickets.isError ? (
        <LoadError title={t('list.loadError')} detail={errorText(tickets.error)} onRetry={() => void tickets.refetch()} />
      ) : rows.length === 0 ? (
        <div className="empty" role="status">
          <p className="empty-title">{t('queue.empty')}</p>
        </div>
      ) : (
        <TicketTable rows={rows} staff hrefOf={paths.manager.supportTicket.getHref} />
      )}
      {tickets.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void tickets.fetchNextPage()} disabled={tickets.isFetchingNextPage}>
          {t('list.loadMore')}
        </button>
      ) : null}
    </div>
  );
}
