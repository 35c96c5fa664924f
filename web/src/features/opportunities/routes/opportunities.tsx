import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { usePublishedOpportunities } from '../api/get-published-opportunities';
import { OpportunityFilters } from '../components/opportunity-filters';
import { OpportunityList } from '../components/opportunity-list';
import { useOpportunityFilters } from '../hooks/use-opportunity-filters';
import { isOpportunitySort, OPPORTUNITY_SORTS, sortOpportunities, type OpportunitySort } from '../sort';

/** The published list: public at /public/opportunities, signed-in at /opportunities (same page). */
export function OpportunitiesRoute({ variant }: { variant: 'public' | 'app' }) {
  const { t, i18n } = useTranslation('opportunities');
  const sortId = useId();
  const [params, setParams] = useSearchParams();
  const sortParam = params.get('sort');
  const sort: OpportunitySort = isOpportunitySort(sortParam) ? sortParam : 'endingSoon';
  const errorText = useErrorText();
  usePageTitle(t('list.title'));
  const [filters, setFilters] = useOpportunityFilters();
  const query = usePublishedOpportunities(filters, variant === 'app');
  const detailHref = variant === 'public' ? paths.public.opportunity.getHref : paths.app.opportunity.getHref;

  return (
    <div className="page">
      <h1>{t('list.title')}</h1>
      <p>{t('list.intro')}</p>
      <p>
        <Link to={variant === 'public' ? paths.public.getAlerts.getHref() : paths.app.alerts.getHref()}>{t('list.alertsLink')}</Link>
      </p>
      <OpportunityFilters value={filters} onChange={setFilters} />
      <div className="field field-inline sort-control">
        <label htmlFor={sortId}>{t('list.sortBy')}</label>
        <select
          id={sortId}
          value={sort}
          onChange={(e) =>
            setParams(
              (prev) => {
                const next = new URLSearchParams(prev);
                if (e.target.value === 'endingSoon') next.delete('sort');
                else next.set('sort', e.target.value);
                return next;
              },
              { replace: true },
            )
          }
        >
          {OPPORTUNITY_SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`list.sort.${s}`)}
            </option>
          ))}
        </select>
      </div>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('list.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <OpportunityList opportunities={sortOpportunities(query.data, sort, i18n.language)} detailHref={detailHref} />
      )}
    </div>
  );
}
