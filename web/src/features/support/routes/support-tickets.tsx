import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { SUPPORT_CASE_KINDS, type SupportCaseKind } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { useTicketEvents } from '../api/ticket-events';
import { useTickets } from '../api/support-tickets';
import { NewTicketForm } from '../components/new-ticket-form';
import { TicketTable } from '../components/ticket-table';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /support-ticket (spec section 2; User and HousingAmbassador): my tickets and a new one. */
export function SupportTicketsRoute() {
  const { t } = useTranslation('support');
  usePageTitle(t('list.title'));
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const kind = params.get('caseKind');
  const caseId = params.get('caseId');
  const linkedCase = kind && caseId && SUPPORT_CASE_KINDS.includes(kind as SupportCaseKind) && UUID.test(caseId) ? { kind: kind as SupportCaseKind, id: caseId } : null;
  // New tickets and answers arrive live; the list polls only while the stream is down.
  useTicketEvents();
  const tickets = useTickets({});
  const rows = tickets.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="page">
      <h1>{t('list.title')}</h1>
      <p>{t('list.intro')}</p>
      <NewTicketForm key={linkedCase?.id ?? 'none'} linkedCase={linkedCase} />
      <h2>{t('list.mine')}</h2>
      {tickets.isPending ? (
        <Loading />
      ) : tickets.isError ? (
        <LoadError title={t('list.loadError')} detail={errorText(tickets.error)} onRetry={() => void tickets.refetch()} />
      ) : rows.length === 0 ? (
        <div className="empty" role="status">
          <p className="empty-title">{t('list.empty')}</p>
        </div>
      ) : (
        <TicketTable rows={rows} staff={false} hrefOf={paths.app.supportTicket.getHref} />
      )}
      {tickets.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void tickets.fetchNextPage()} disabled={tickets.isFetchingNextPage}>
          {t('list.loadMore')}
        </button>
      ) : null}
    </div>
  );
}
