import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { useSession } from '../../auth/hooks/use-session';
import { CaseSupport } from '../../../components/case-support';
import { WhoseMoveSentence } from '../../../components/whose-move';
import { useApplication } from '../api/get-application';
import { ActionPanel } from '../components/action-panel';
import { ApplicationInfo } from '../components/application-info';
import { ApplicationProgress } from '../components/application-progress';
import { LotteryPlace } from '../components/lottery-place';
import { Timeline } from '../components/timeline';
import { CaseFilePanel } from '../../case-file/components/case-file-panel';
import { DocumentsToFix } from '../components/documents-to-fix';

/** /myApplications/:id for the applicant and the organisation's manager alike (viewerRole decides). */
export function ApplicationRoute() {
  const { t } = useTranslation('leaseupApplications');
  usePageTitle(t('detail.title'));
  const errorText = useErrorText();
  const { id = '' } = useParams();
  const session = useSession();
  const query = useApplication(id);
  const isManager = query.data ? query.data.viewerRole === 'manager' : session?.user.role === 'Manager';

  return (
    <div className="page">
      <p>
        <Link
          className="back-link"
          to={isManager ? paths.manager.tasks.getHref() : paths.app.myApplications.getHref()}
        >
          ← {isManager ? t('detail.backToTasks') : t('detail.back')}
        </Link>
      </p>
      <h1>{query.data ? t('detail.titleWithName', { name: query.data.opportunityName }) : t('detail.title')}</h1>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('detail.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <WhoseMoveSentence kind="lease_up" viewer={isManager ? 'manager' : 'person'} status={query.data.status} pendingTasks={query.data.pendingTasks} />
          <div className="detail-grid">
            <ApplicationInfo application={query.data} />
            <LotteryPlace application={query.data} />
            <ActionPanel application={query.data} />
            <ApplicationProgress application={query.data} />
            <Timeline entries={query.data.timeline} />
            {isManager ? null : <DocumentsToFix />}
            {isManager ? null : <CaseSupport kind="lease_up" caseId={query.data.applicationId} />}
          </div>
          {isManager ? <CaseFilePanel kind="lease-up" caseId={query.data.applicationId} /> : null}
        </>
      )}
    </div>
  );
}
