import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import type { Organization } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useDecideRequest, useOrganizationRequests, useOrganizations } from '../api/admin';
import { MembersPanel } from '../components/members-panel';
import { OrganizationFormDialog } from '../components/organization-form-dialog';

/** /admin/organizations (spec sections 2 and 6): organisations, their staff, applications to join. */
export function AdminOrganizationsRoute() {
  const { t } = useTranslation('ambassador');
  usePageTitle(t('admin.organizations.title'));
  const errorText = useErrorText();
  const toast = useToast();
  const searchId = useId();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ organization: Organization | null } | null>(null);
  const [selected, setSelected] = useState<Organization | null>(null);
  const organizations = useOrganizations(search);
  const requests = useOrganizationRequests();
  const decide = useDecideRequest();
  const rows = organizations.data?.pages.flatMap((p) => p.items) ?? [];
  const pending = requests.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="page">
      <h1>{t('admin.organizations.title')}</h1>
      <p>
        <button type="button" className="button button-primary" onClick={() => setEditing({ organization: null })}>
          {t('admin.organizations.create')}
        </button>
      </p>
      {pending.length > 0 ? (
        <section className="panel panel-highlight">
          <h2>{t('admin.organizations.requests')}</h2>
          <ul>
            {pending.map((r) => (
              <li key={r.requestId}>
                {t('admin.organizations.requestLine', { name: r.name, role: t(`admin.users.roles.${r.role as 'Manager'}`), organization: r.organizationName, date: formatDate(r.createdAt) })}
                {r.note ? <q> {r.note}</q> : null}{' '}
                <button type="button" className="button button-primary" onClick={() => decide.mutate({ requestId: r.requestId, approve: true }, { onError: (e) => toast.showError(errorText(e)) })}>
                  {t('admin.organizations.approve')}
                </button>{' '}
                <button type="button" className="button button-secondary" onClick={() => decide.mutate({ requestId: r.requestId, approve: false }, { onError: (e) => toast.showError(errorText(e)) })}>
                  {t('admin.organizations.decline')}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <form className="filters" role="search" onSubmit={(e) => { e.preventDefault(); setSearch(draft.trim()); }}>
        <div className="field">
          <label htmlFor={searchId}>{t('admin.organizations.search')}</label>
          <input id={searchId} type="search" maxLength={100} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <button type="submit" className="button button-primary">
          {t('users.apply')}
        </button>
      </form>
      {organizations.isPending ? (
        <Loading />
      ) : organizations.isError ? (
        <LoadError title={t('organizations.loadError')} detail={errorText(organizations.error)} onRetry={() => void organizations.refetch()} />
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('admin.organizations.title')}>
          <table>
            <caption className="visually-hidden">{t('admin.organizations.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('organizations.name')}</th>
                <th scope="col">{t('admin.organizations.slug')}</th>
                <th scope="col">{t('organizations.kind')}</th>
                <th scope="col">{t('organizations.contact')}</th>
                <th scope="col">{t('organizations.period')}</th>
                <th scope="col">{t('users.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.organizationId}>
                  <th scope="row">{o.name}</th>
                  <td>{o.slug}</td>
                  <td>{t(`organizations.kinds.${o.kind}`)}</td>
                  <td>{[o.email, o.phone].filter(Boolean).join(' · ')}</td>
                  <td>{t('organizations.periodDays', { days: o.accessPeriodDays })}</td>
                  <td className="action-buttons">
                    <button type="button" className="button button-secondary" onClick={() => setEditing({ organization: o })} aria-label={t('admin.organizations.editTitle', { name: o.name })}>
                      {t('admin.organizations.edit')}
                    </button>
                    <button type="button" className="button button-secondary" onClick={() => setSelected(o)} aria-label={t('admin.organizations.staffOf', { name: o.name })}>
                      {t('admin.organizations.members')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {organizations.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void organizations.fetchNextPage()}>
          {t('organizations.more')}
        </button>
      ) : null}
      {selected ? <MembersPanel key={selected.organizationId} organization={selected} /> : null}
      <OrganizationFormDialog open={editing !== null} organization={editing?.organization ?? null} onClose={() => setEditing(null)} />
    </div>
  );
}
