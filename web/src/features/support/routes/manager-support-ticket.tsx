import { useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { TicketDetailPage } from '../components/ticket-detail';

/** /manager/support-ticket/{id}: a ticket of the organisation's queue, with its case beside it. */
export function ManagerSupportTicketRoute() {
  const { id = '' } = useParams();
  return <TicketDetailPage id={id} backHref={paths.manager.supportTickets.getHref()} />;
}
