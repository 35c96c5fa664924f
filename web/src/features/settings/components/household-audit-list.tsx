import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import type { ImpersonationAuditEntry } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useHouseholdAudit } from '../api/access';
import { AuditTable } from '../../../components/audit-table';

/** Everything done for the household while someone acted for it, newest first. */
export function HouseholdAuditList() {
  const { t } = useTranslation('ambassador');
  const audit = useHouseholdAudit();
  const errorText = useErrorText();
  const rows: ImpersonationAuditEntry[] = audit.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <h3>{t('household.auditTitle')}</h3>
      {audit.isPending ? (
        <Loading />
      ) : audit.isError ? (
        <LoadError title={t('household.loadError')} detail={errorText(audit.error)} onRetry={() => void audit.refetch()} />
      ) : rows.length === 0 ? (
        <p>{t('household.auditEmpty')}</p>
      ) : (
        <AuditTable rows={rows} caption={t('household.auditTitle')} />
      )}
      {audit.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
          {t('household.more')}
        </button>
      ) : null}
    </>
  );
}
