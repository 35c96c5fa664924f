import { useTranslation } from 'react-i18next';
import type { AccessSummary } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';

/** Whether the household lets the ambassador's organisation act for it. */
export function AccessBadge({ access }: { access: AccessSummary | null }) {
  const { t } = useTranslation('ambassador');
  if (!access) return <span className="badge">{t('access.status.none')}</span>;
  const className = access.status === 'granted' ? 'badge badge-open' : access.status === 'pending' ? 'badge badge-urgent' : 'badge';
  return <span className={className}>{t(`access.status.${access.status}`, { date: formatDate(access.expiresAt) })}</span>;
}
