import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import { useOpportunityChoices } from '../../../lib/opportunity-choices';
import { useApplications } from '../api/get-applications';
import { ApplicationsTable } from '../components/applications-table';

/**
 * /manager/applications: the organisation's applications, or one opportunity's, newest first, a
 * page at a time (at 100,000 applications the list must not load whole).
 */
export function ManagerApplicationsRoute() {
  const { t } = useTranslation('leaseupApplications');
  usePageTitle(t('managerList.title'));
  const errorText = useErrorText();
  const ids = { search: useId(), opportunity: useId() };
  // Filters live in the URL so Back and a shared link keep them (and an opportunity page can link here).
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const opportunityId = params.get('opportunityId') ?? '';
  const [draft, setDraft] = useState(search);
  const opportunities = useOpportunityChoices();
  const query = useApplications({ ...(search ? { search } : {}), ...(opportunityId ? { opportunityId } : {}) });
  const rows = query.data?.pages.flatMap((p) => p.items) ?? [];

  const setFilter = (next: { search?: string; opportunityId?: string }) => {
    const merged = { search, opportunityId, ...next };
    setParams(Object.fromEntries(Object.entries(merged).filter(([, v]) => v)) as Record<string, string>, { replace: true });
  };
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFilter({ search: draft.trim() });
  }

  return (
    <div className="page">
      <h1>{t('managerList.title')}</h1>
      <p>{t('managerList.intro')}</p>
      <form className="filters" role="search" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={ids.opportunity}>{t('managerList.opportunity')}</label>
          <select id={ids.opportunity} value={opportunityId} onChange={(e) => setFilter({ opportunityId: e.target.value })}>
            <option value="">{t('managerList.allOpportunities')}</option>
            {(opportunities.data ?? []).map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={ids.search}>{t('managerList.search')}</label>
          <div className="input-with-button">
            <input id={ids.search} type="search" value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} />
            <button type="submit" className="button button-primary">
              {t('managerList.searchButton')}
            </button>
          </div>
        </div>
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('managerList.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <p className="empty" role="status">
          {t('managerList.empty')}
        </p>
      ) : (
        <ApplicationsTable rows={rows} title={t('managerList.title')} withApplicant />
      )}
      {query.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? t('list.loadingMore') : t('list.loadMore')}
        </button>
      ) : null}
    </div>
  );
}
