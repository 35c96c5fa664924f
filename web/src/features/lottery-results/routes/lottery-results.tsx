import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { useLotteryResults } from '../api/get-lottery-results';
import { InvitationLog } from '../components/invitation-log';
import { LogNumberSearch } from '../components/log-number-search';
import { LotteryPublicationView } from '../components/lottery-publication';
import { RankedList } from '../components/ranked-list';

/**
 * `/lottery/:opportunityId/results`, public: the published draw and whether it verifies, a search
 * by log number, the ranked list page by page, and the invitation log (invitations and pass-overs
 * with their reasons) page by page.
 */
export function LotteryResultsRoute() {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  const { opportunityId = '' } = useParams();
  // Cursors of the pages walked so far: the last is the page shown (0 = from the first rank).
  const [cursors, setCursors] = useState<number[]>([0]);
  const after = cursors.at(-1) ?? 0;
  const query = useLotteryResults(opportunityId, after);
  const name = query.data?.lottery.opportunityName;
  usePageTitle(name ? t('title', { name }) : t('titleGeneric'));

  return (
    <div className="page">
      <p>
        <Link to={paths.public.opportunity.getHref(opportunityId)} className="back-link">
          ← {t('backToOpportunity')}
        </Link>
      </p>
      <h1>{name ? t('title', { name }) : t('titleGeneric')}</h1>
      <p className="lead">{t('intro')}</p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <LotteryPublicationView lottery={query.data.lottery} />
          {query.data.lottery.drawn ? (
            <>
              <LogNumberSearch opportunityId={opportunityId} />
              {query.data.ranks ? (
                <RankedList
                  page={query.data.ranks}
                  hasPrevious={cursors.length > 1}
                  busy={query.isFetching}
                  onPrevious={() => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c))}
                  onNext={(next) => setCursors((c) => [...c, next])}
                />
              ) : null}
              <InvitationLog opportunityId={opportunityId} />
            </>
          ) : null}
        </>
      )}
    </div>
  );
}
