import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { useSession } from '../../auth/hooks/use-session';
import { useOpportunity } from '../api/get-opportunity';
import { OpportunityDetailView } from '../components/opportunity-detail';
import { lazyRoute } from '../../../app/lazy-route';

// Applying (a form with its schemas) is for signed-in residents only: the public page does not load it.
const ApplyButton = lazyRoute(() => import('../../lease-up/components/apply-dialog'), 'ApplyButton');
// So is keeping a favourite (a mutation and the favourites list).
const FavoriteButton = lazyRoute(() => import('../../favorites/components/favorite-button'), 'FavoriteButton');

/**
 * One opportunity: public at /public/opportunity/:id (with a way to apply online), signed-in at
 * /opportunity/:id with the Apply button and dialog.
 */
export function OpportunityRoute({ variant }: { variant: 'public' | 'app' }) {
  const { t } = useTranslation('opportunities');
  const errorText = useErrorText();
  const { id = '' } = useParams();
  const session = useSession();
  const query = useOpportunity(id);
  usePageTitle(query.data?.name ?? t('list.title'));
  const listHref = variant === 'public' ? paths.public.opportunities.getHref() : paths.app.opportunities.getHref();

  const applySlot =
    variant === 'app' ? (
      query.data ? (
        <div className="action-buttons">
          <Suspense fallback={null}>
            <ApplyButton opportunity={query.data} />
          </Suspense>
          <Suspense fallback={null}>
            <FavoriteButton opportunityId={query.data.id} />
          </Suspense>
        </div>
      ) : null
    ) : (
      <Link
        className="button button-primary"
        to={session ? paths.app.opportunity.getHref(id) : paths.login.getHref(paths.app.opportunity.getHref(id))}
      >
        {session ? t('detail.goToApply') : t('detail.signInToApply')}
      </Link>
    );

  return (
    <div className="page">
      <p>
        <Link to={listHref} className="back-link">
          ← {t('detail.back')}
        </Link>
      </p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('detail.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <OpportunityDetailView opportunity={query.data} applySlot={applySlot} />
      )}
    </div>
  );
}
