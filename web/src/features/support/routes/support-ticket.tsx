import { useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { TicketDetailPage } from '../components/ticket-detail';

/** /support-ticket/{id} (spec section 2): the requester's ticket. */
export function SupportTicketRoute() {
  const { id = '' } = useParams();
  return <TicketDetailPage id={id} backHref={paths.app.supportTickets.getHref()} />;
}
