import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import type { Organization } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useAdminUsers, useAssignMember, useMembers } from '../api/admin';

/** Managers and ambassadors of one organisation: assign by searching staff, remove. */
export function MembersPanel({ organization }: { organization: Organization }) {
  const { t } = useTranslation('ambassador');
  const toast = useToast();
  const errorText = useErrorText();
  const ids = { heading: useId(), search: useId() };
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const members = useMembers(organization.organizationId);
  const candidates = useAdminUsers({ search, role: '', status: 'active', sort: 'name', dir: 'asc' });
  const assign = useAssignMember();
  const rows = members.data?.pages.flatMap((p) => p.items) ?? [];
  const memberIds = new Set(rows.map((m) => m.userId));
  const staff = search
    ? (candidates.data?.pages.flatMap((p) => p.items) ?? []).filter((u) => (u.role === 'Manager' || u.role === 'HousingAmbassador') && !memberIds.has(u.userId)).slice(0, 10)
    : [];
  const onError = (error: unknown) => toast.showError(errorText(error));

  return (
    <section className="panel" aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>{t('admin.organizations.membersOf', { name: organization.name })}</h2>
      {members.isPending ? (
        <Loading />
      ) : rows.length === 0 ? (
        <p>{t('admin.organizations.noMembers')}</p>
      ) : (
        <ul>
          {rows.map((m) => (
            <li key={m.userId}>
              {m.name} ({t(`admin.users.roles.${m.role}`)}, {m.email}){' '}
              <button
                type="button"
                className="button button-secondary"
                onClick={() => assign.mutate({ organizationId: organization.organizationId, userId: m.userId, remove: true }, { onSuccess: () => toast.showSuccess(t('admin.organizations.removed')), onError })}
              >
                {t('admin.organizations.remove', { name: m.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {members.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void members.fetchNextPage()}>
          {t('household.more')}
        </button>
      ) : null}
      <form className="inline-form" role="search" onSubmit={(e) => { e.preventDefault(); setSearch(draft.trim()); }}>
        <div className="field">
          <label htmlFor={ids.search}>{t('admin.organizations.findStaff')}</label>
          <input id={ids.search} type="search" maxLength={100} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <button type="submit" className="button button-secondary">
          {t('admin.organizations.find')}
        </button>
      </form>
      {search && !candidates.isPending && staff.length === 0 ? <p role="status">{t('admin.organizations.noStaffFound')}</p> : null}
      <ul>
        {staff.map((u) => {
          const name = `${u.firstName} ${u.lastName}`.trim();
          return (
            <li key={u.userId}>
              {name} ({t(`admin.users.roles.${u.role}`)}, {u.email}){' '}
              <button
                type="button"
                className="button button-primary"
                onClick={() => assign.mutate({ organizationId: organization.organizationId, userId: u.userId }, { onSuccess: () => toast.showSuccess(t('admin.organizations.assigned', { name })), onError })}
              >
                {t('admin.organizations.assign', { name })}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
