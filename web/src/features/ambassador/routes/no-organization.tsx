import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { homePathFor } from '../../auth/home-path';
import { useSession } from '../../auth/hooks/use-session';
import { useApplyToOrganization, useOrganizationDirectory, useOrganizationLink } from '../api/organization-link';

/** Spec section 2: users with no linked organisation are told they lack permission, with a way to apply. */
export function NoOrganizationRoute() {
  const { t } = useTranslation('ambassador');
  usePageTitle(t('noOrganization.title'));
  const session = useSession();
  const link = useOrganizationLink();
  const directory = useOrganizationDirectory('');
  const apply = useApplyToOrganization();
  const toast = useToast();
  const errorText = useErrorText();
  const ids = { org: useId(), note: useId() };
  const [organizationId, setOrganizationId] = useState('');
  const [note, setNote] = useState('');

  if (link.isPending) return <Loading />;
  if (link.data?.linked && session) return <Navigate to={homePathFor(session.user.role)} replace />;
  const organizations = directory.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="page page-narrow">
      <h1>{t('noOrganization.title')}</h1>
      <p className="notice">{t('noOrganization.body')}</p>
      {(link.data?.pendingRequests ?? []).map((r) => (
        <p key={r.requestId} role="status">
          {t('noOrganization.pending', { name: r.organizationName, date: formatDate(r.createdAt) })}
        </p>
      ))}
      <h2>{t('noOrganization.applyTitle')}</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          apply.mutate({ organizationId, note }, { onSuccess: () => toast.showSuccess(t('noOrganization.applied')), onError: (error) => toast.showError(errorText(error)) });
        }}
      >
        <div className="field">
          <label htmlFor={ids.org}>{t('noOrganization.organization')}</label>
          <select id={ids.org} required value={organizationId} onChange={(e) => setOrganizationId(e.target.value)}>
            <option value="">{t('noOrganization.choose')}</option>
            {organizations.map((o) => (
              <option key={o.organizationId} value={o.organizationId}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.note}>{t('noOrganization.note')}</label>
          <textarea id={ids.note} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
        <button type="submit" className="button button-primary" disabled={!organizationId || apply.isPending}>
          {t('noOrganization.apply')}
        </button>
      </form>
    </div>
  );
}
