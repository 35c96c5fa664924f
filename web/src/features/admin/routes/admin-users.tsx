import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { ROLES, USER_STATUSES, type AdminUserRow, type Role, type UserSort, type UserStatus } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../auth/hooks/use-session';
import { SortableHeader } from '../../../components/sortable-header';
import { useAdminUsers, type AdminUserParams } from '../api/admin';
import { UserHistoryDialog } from '../components/user-history-dialog';
import { UserRowActions } from '../components/user-row-actions';

/** /admin/users (spec sections 2 and 6): search, roles, deactivation, verification, history. */
export function AdminUsersRoute() {
  const { t } = useTranslation('ambassador');
  usePageTitle(t('admin.users.title'));
  const session = useSession();
  const errorText = useErrorText();
  const ids = { search: useId(), role: useId(), status: useId() };
  const [draft, setDraft] = useState({ search: '', role: '' as Role | '', status: '' as UserStatus | '' });
  const [params, setParams] = useState<AdminUserParams>({ search: '', role: '', status: '', sort: 'createdAt', dir: 'desc' });
  const [history, setHistory] = useState<AdminUserRow | null>(null);
  const users = useAdminUsers(params);
  const rows = users.data?.pages.flatMap((p) => p.items) ?? [];
  const sortBy = (column: UserSort) => setParams((p) => ({ ...p, sort: column, dir: p.sort === column && p.dir === 'asc' ? 'desc' : 'asc' }));
  const header = (column: UserSort, label: string) => (
    <SortableHeader column={column} label={label} sort={params.sort} dir={params.dir} onSort={sortBy} sortLabel={t('users.sortBy', { column: label })} />
  );

  return (
    <div className="page">
      <h1>{t('admin.users.title')}</h1>
      <form className="filters" role="search" onSubmit={(e) => { e.preventDefault(); setParams((p) => ({ ...p, ...draft })); }}>
        <div className="field">
          <label htmlFor={ids.search}>{t('users.search')}</label>
          <input id={ids.search} type="search" maxLength={100} value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.role}>{t('admin.users.role')}</label>
          <select id={ids.role} value={draft.role} onChange={(e) => setDraft({ ...draft, role: e.target.value as Role | '' })}>
            <option value="">{t('admin.users.allRoles')}</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.users.roles.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.status}>{t('users.status')}</label>
          <select id={ids.status} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value as UserStatus | '' })}>
            <option value="">{t('users.allStatuses')}</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`users.statuses.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary">
          {t('users.apply')}
        </button>
      </form>
      {users.isPending ? (
        <Loading />
      ) : users.isError ? (
        <LoadError title={t('users.loadError')} detail={errorText(users.error)} onRetry={() => void users.refetch()} />
      ) : rows.length === 0 ? (
        <div className="empty" role="status">
          <p className="empty-title">{t('users.empty')}</p>
        </div>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('admin.users.title')}>
          <table>
            <caption className="visually-hidden">{t('admin.users.title')}</caption>
            <thead>
              <tr>
                {header('name', t('users.columns.name'))}
                {header('username', t('users.columns.username'))}
                {header('email', t('users.columns.email'))}
                <th scope="col">{t('admin.users.role')}</th>
                <th scope="col">{t('create.organization')}</th>
                {header('createdAt', t('users.columns.createdDate'))}
                {header('status', t('users.columns.status'))}
                <th scope="col">{t('users.columns.emailVerified')}</th>
                <th scope="col">{t('users.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => (
                <tr key={u.userId}>
                  <th scope="row">{`${u.firstName} ${u.lastName}`.trim()}</th>
                  <td>{u.username}</td>
                  <td>{u.email}</td>
                  <td>{t(`admin.users.roles.${u.role}`)}</td>
                  <td>{[u.organizationName, ...u.ambassadorOrganizations.map((o) => o.name)].filter(Boolean).join(', ')}</td>
                  <td>{formatDate(u.createdAt)}</td>
                  <td>{t(`users.statuses.${u.status}`)}</td>
                  <td>{u.emailVerified ? t('users.yes') : t('users.no')}</td>
                  <td>
                    <UserRowActions key={`${u.userId}:${u.role}`} user={u} isSelf={u.userId === session?.user.userId} onHistory={() => setHistory(u)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {users.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void users.fetchNextPage()} disabled={users.isFetchingNextPage}>
          {t('users.loadMore')}
        </button>
      ) : null}
      <UserHistoryDialog user={history} onClose={() => setHistory(null)} />
    </div>
  );
}
