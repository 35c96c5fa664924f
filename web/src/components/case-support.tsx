import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { api } from '../lib/api-client';
import type { Page, SupportCaseKind, SupportTicketListItem } from '../lib/domain';

/**
 * 'Contact support' on a case page (spec section 4 applicant actions; the application, the
 * recertification and the relocation): opens a ticket linked to the case, and lists the tickets
 * already opened about it (GET GetSupportTickets?caseId=).
 */
export function CaseSupport({ kind, caseId }: { kind: SupportCaseKind; caseId: string }) {
  const { t } = useTranslation('support');
  const tickets = useQuery({
    queryKey: ['support-tickets', 'case', caseId],
    queryFn: ({ signal }) => api.get<Page<SupportTicketListItem>>('/SupportTicket/GetSupportTickets', { signal, query: { caseId, limit: 10 } }),
  });
  const rows = tickets.data?.items ?? [];
  return (
    <section className="panel" aria-labelledby={`case-support-${caseId}`}>
      <h2 id={`case-support-${caseId}`}>{t('case.title')}</h2>
      {rows.length ? (
        <ul>
          {rows.map((r) => (
            <li key={r.ticketId}>
              <Link to={paths.app.supportTicket.getHref(r.ticketId)}>{r.subject}</Link> · {t(`statuses.${r.status}`)}
            </li>
          ))}
        </ul>
      ) : null}
      <Link className="button button-secondary" to={paths.app.supportTickets.getHref({ caseKind: kind, caseId })}>
        {t('case.contact')}
      </Link>
    </section>
  );
}
