import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { WhereIStand } from '../../../components/waitlist/where-i-stand';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { useApplications } from '../api/get-applications';
import { ApplicationsTable } from '../components/applications-table';

/** /myApplications: the household's applications with a search box (spec section 2). */
export function MyApplicationsRoute() {
  const { t } = useTranslation('leaseupApplications');
  usePageTitle(t('list.title'));
  const errorText = useErrorText();
  const searchId = useId();
  // The search lives in the URL so Back and a shared link keep it.
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [draft, setDraft] = useState(search);
  const query = useApplications({ search });
  const rows = query.data?.pages.flatMap((p) => p.items) ?? [];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = draft.trim();
    setParams(next ? { search: next } : {}, { replace: true });
  }

  return (
    <div className="page">
      <h1>{t('list.title')}</h1>
      {/* A household that applied on paper finds here where to enter the code of its letter. */}
      <p>
        <Link to={paths.app.claimPaper.getHref()}>{t('list.claimPaper')}</Link>
      </p>
      <WhereIStand />
      <form className="filters" role="search" onSubmit={onSubmit}>
        <div className="field field-inline">
          <label htmlFor={searchId}>{t('list.search')}</label>
          <div className="input-with-button">
            <input id={searchId} type="search" value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} />
            <button type="submit" className="button button-primary">
              {t('list.searchButton')}
            </button>
          </div>
        </div>
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('list.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <div className="empty" role="status">
          <p className="empty-title">{search ? t('list.emptySearch') : t('list.empty')}</p>
          <Link to={paths.app.opportunities.getHref()}>{t('list.browse')}</Link>
        </div>
      ) : (
        <ApplicationsTable rows={rows} />
      )}
      {query.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? t('list.loadingMore') : t('list.loadMore')}
        </button>
      ) : null}
    </div>
  );
}
