import type { ApplicationStatus } from '../../../lib/domain';
import { useLeaseUpLabels } from './labels';

export function StatusBadge({ status }: { status: ApplicationStatus }) {
  const labels = useLeaseUpLabels();
  return <span className={`badge badge-status-${status}`}>{labels.status(status)}</span>;
}
