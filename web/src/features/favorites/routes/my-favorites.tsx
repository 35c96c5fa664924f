import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { OpportunityList } from '../../opportunities/components/opportunity-list';
import { useFavorites } from '../api/favorites';

/** /my-favorites: the opportunities the user keeps, soonest lottery end first. */
export function MyFavoritesRoute() {
  const { t } = useTranslation('opportunities');
  usePageTitle(t('favorites.title'));
  const errorText = useErrorText();
  const query = useFavorites();
  return (
    <div className="page">
      <h1>{t('favorites.title')}</h1>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('list.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <div className="empty" role="status">
          <p className="empty-title">{t('favorites.empty')}</p>
          <Link to={paths.app.opportunities.getHref()}>{t('favorites.browse')}</Link>
        </div>
      ) : (
        <OpportunityList opportunities={query.data} detailHref={paths.app.opportunity.getHref} />
      )}
    </div>
  );
}
