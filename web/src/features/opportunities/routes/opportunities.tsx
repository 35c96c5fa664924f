import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { usePublishedOpportunities } from '../api/get-published-opportunities';
import { OpportunityFilters } from '../components/opportunity-filters';
import { OpportunityList } from '../components/opportunity-list';
import { useOpportunityFilters } from '../hooks/use-opportunity-filters';
import { byDaysRemaining } from '../sort';

/** The published list: public at /public/opportunities, signed-in at /opportunities (same page). */
export function OpportunitiesRoute({ variant }: { variant: 'public' | 'app' }) {
  const { t } = useTranslation('opportunities');
  const errorText = useErrorText();
  usePageTitle(t('list.title'));
  const [filters, setFilters] = useOpportunityFilters();
  const query = usePublishedOpportunities(filters, variant === 'app');
  const detailHref = variant === 'public' ? paths.public.opportunity.getHref : paths.app.opportunity.getHref;

  return (
    <div className="page">
      <h1>{t('list.title')}</h1>
      <p>{t('list.intro')}</p>
      <OpportunityFilters value={filters} onChange={setFilters} />
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('list.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <OpportunityList opportunities={[...query.data].sort(byDaysRemaining)} detailHref={detailHref} />
      )}
    </div>
  );
}
