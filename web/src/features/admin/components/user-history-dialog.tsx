import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { Loading } from '../../../components/ui/status-message';
import { formatDateTime } from '../../../lib/format';
import type { AdminUserRow } from '../../../lib/domain';
import { AuditTable } from '../../../components/audit-table';
import { useActionsFor, useUserChanges } from '../api/admin';

const formatTime = (iso: string) => formatDateTime(iso);

/** One user's history for admins: each change an admin made, and every action taken while someone acted for them. */
export function UserHistoryDialog({ user, onClose }: { user: AdminUserRow | null; onClose: () => void }) {
  const { t } = useTranslation('ambassador');
  const changes = useUserChanges(user?.userId ?? null);
  const actions = useActionsFor(user?.userId ?? null);
  const name = user ? `${user.firstName} ${user.lastName}`.trim() : '';
  const changeRows = changes.data?.pages.flatMap((p) => p.items) ?? [];
  const actionRows = actions.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Dialog open={user !== null} title={t('admin.users.historyTitle', { name })} onClose={onClose}>
      <h3>{t('admin.users.changes')}</h3>
      {changes.isPending ? (
        <Loading />
      ) : changeRows.length === 0 ? (
        <p>{t('admin.users.historyEmpty')}</p>
      ) : (
        <ul>
          {changeRows.map((c) => (
            <li key={c.id}>
              {[`${formatTime(c.at)}: ${t(`admin.users.actions.${c.action}`)}`, c.detail.to ? `(${c.detail.from} → ${c.detail.to})` : null, t('admin.users.by', { name: c.actorName })].filter(Boolean).join(' ')}
            </li>
          ))}
        </ul>
      )}
      {changes.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void changes.fetchNextPage()}>
          {t('household.more')}
        </button>
      ) : null}
      <h3>{t('admin.users.actionsFor')}</h3>
      {actions.isPending ? <Loading /> : actionRows.length === 0 ? <p>{t('admin.users.nobodyActed')}</p> : <AuditTable rows={actionRows} caption={t('admin.users.actionsFor')} />}
      {actions.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void actions.fetchNextPage()}>
          {t('household.more')}
        </button>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('admin.close')}
        </button>
      </div>
    </Dialog>
  );
}
