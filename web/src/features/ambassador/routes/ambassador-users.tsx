import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { USER_STATUSES, type UserSort, type UserStatus } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useSession } from '../../auth/hooks/use-session';
import { useActFor } from '../api/act-for';
import { useAmbassadorUsers, type UserListParams } from '../api/ambassador';
import { AccessBadge } from '../components/access-badge';
import { CreateResidentDialog } from '../components/create-resident-dialog';
import { SortableHeader } from '../../../components/sortable-header';

const COLUMNS: { key: UserSort | null; label: 'name' | 'username' | 'email' | 'contactNumber' | 'createdDate' | 'status' | 'emailVerified' }[] = [
  { key: 'name', label: 'name' },
  { key: 'username', label: 'username' },
  { key: 'email', label: 'email' },
  { key: null, label: 'contactNumber' },
  { key: 'createdAt', label: 'createdDate' },
  { key: 'status', label: 'status' },
  { key: null, label: 'emailVerified' },
];

/** /ambassador/users (spec section 2): the users of the ambassador's organisations, searched, sorted and paged. */
export function AmbassadorUsersRoute() {
  const { t } = useTranslation('ambassador');
  usePageTitle(t('users.title'));
  const session = useSession();
  const ambassadorId = session?.user.userId ?? '';
  const errorText = useErrorText();
  const toast = useToast();
  const ids = { search: useId(), status: useId() };
  const [draft, setDraft] = useState({ search: '', status: '' as UserStatus | '' });
  const [params, setParams] = useState<UserListParams>({ search: '', status: '', sort: 'createdAt', dir: 'desc' });
  const [creating, setCreating] = useState<'applicant' | 'user' | null>(null);
  const users = useAmbassadorUsers(ambassadorId, params);
  const actFor = useActFor();
  const rows = users.data?.pages.flatMap((p) => p.items) ?? [];
  const sortBy = (column: UserSort) => setParams((p) => ({ ...p, sort: column, dir: p.sort === column && p.dir === 'asc' ? 'desc' : 'asc' }));

  return (
    <div className="page">
      <h1>{t('users.title')}</h1>
      <p>{t('users.intro')}</p>
      <p className="action-buttons">
        <button type="button" className="button button-primary" onClick={() => setCreating('applicant')}>
          {t('users.createApplicant')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => setCreating('user')}>
          {t('users.addUser')}
        </button>
        <Link to={paths.ambassador.organizations.getHref()} className="button button-secondary">
          {t('users.organizationsLink')}
        </Link>
      </p>
      <form className="filters" role="search" onSubmit={(e) => { e.preventDefault(); setParams((p) => ({ ...p, ...draft })); }}>
        <div className="field">
          <label htmlFor={ids.search}>{t('users.search')}</label>
          <input id={ids.search} type="search" maxLength={100} value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
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
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('users.title')}>
          <table>
            <caption className="visually-hidden">{t('users.title')}</caption>
            <thead>
              <tr>
                {COLUMNS.map((c) =>
                  c.key ? (
                    <SortableHeader key={c.label} column={c.key} label={t(`users.columns.${c.label}`)} sort={params.sort} dir={params.dir} onSort={sortBy} sortLabel={t('users.sortBy', { column: t(`users.columns.${c.label}`) })} />
                  ) : (
                    <th key={c.label} scope="col">
                      {t(`users.columns.${c.label}`)}
                    </th>
                  ),
                )}
                <th scope="col">{t('users.columns.access')}</th>
                <th scope="col">{t('users.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => {
                const name = `${u.firstName} ${u.lastName}`.trim();
                return (
                  <tr key={u.userId}>
                    <th scope="row">{name}</th>
                    <td>{u.username}</td>
                    <td>{u.email}</td>
                    <td>{u.phoneNumber}</td>
                    <td>{formatDate(u.createdAt)}</td>
                    <td>{t(`users.statuses.${u.status}`)}</td>
                    <td>{u.emailVerified ? t('users.yes') : t('users.no')}</td>
                    <td>
                      <AccessBadge access={u.access} />
                    </td>
                    <td className="action-buttons">
                      <Link to={paths.ambassador.userDashboard.getHref(ambassadorId, u.userId)} aria-label={t('users.openFor', { name })}>
                        {t('users.open')}
                      </Link>
                      {u.access?.status === 'granted' ? (
                        <button
                          type="button"
                          className="button button-secondary"
                          disabled={actFor.isPending}
                          onClick={() => actFor.mutate(u.userId, { onError: (error) => toast.showError(errorText(error)) })}
                        >
                          {t('users.actFor', { name })}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {users.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void users.fetchNextPage()} disabled={users.isFetchingNextPage}>
          {t('users.loadMore')}
        </button>
      ) : null}
      <CreateResidentDialog kind={creating} onClose={() => setCreating(null)} />
    </div>
  );
}
