import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { api } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/errors';
import type { RecertManagerAction, RecertificationCase } from '../../../lib/domain';
import { CaseSummary } from '../components/case-summary';
import { WhoseMoveSentence } from '../../../components/whose-move';
import { CaseFilePanel } from '../../case-file/components/case-file-panel';

/** /manager/recertification/:caseId: the manager reviews a case, generates the TIC, approves or returns it. */
export function ManagerRecertificationRoute() {
  const { caseId = '' } = useParams();
  const { t } = useTranslation('recertification');
  usePageTitle(t('manager.title'));
  const client = useQueryClient();
  const toast = useToast();
  const errorText = useErrorText();
  const [reasons, setReasons] = useState('');
  const key = ['recertification', 'case', caseId];
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<RecertificationCase>(`/TenantRecertificationStatus/case/${encodeURIComponent(caseId)}`, { signal }) });
  const act = useMutation({
    mutationFn: ({ action, body }: { action: RecertManagerAction; body?: { reasons: string[] } }) =>
      api.post<RecertificationCase>(`/TenantRecertificationStatus/manager/${encodeURIComponent(caseId)}/${action}`, body ?? {}),
    onSuccess: (data) => {
      client.setQueryData(key, data);
      toast.showSuccess(t('saved'));
      setReasons('');
    },
    onError: (error) => toast.showError(errorText(error)),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError title={t('loadFailed')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />;
  const c = query.data;
  const can = (a: RecertManagerAction) => c.view.availableActions.manager.includes(a);
  const reasonList = reasons.split('\n').map((r) => r.trim()).filter(Boolean);
  return (
    <div className="page">
      <p>
        <Link className="back-link" to={paths.manager.tasks.getHref()}>
          ← {t('manager.backToInbox')}
        </Link>{' '}
        · <Link to={paths.manager.recertifications.getHref()}>{t('manager.allHouseholds')}</Link>
      </p>
      <h1>{t('manager.title')}</h1>
      <WhoseMoveSentence kind="recertification" viewer="manager" status={c.status} pendingTasks={c.view.pendingTasks} />
      {c.status === 'expired' ? <p className="notice">{t('manager.expired')}</p> : null}
      <section className="panel">
        <CaseSummary c={c} viewer="manager" />
        <p>
          <Link className="button button-secondary" to={paths.auth.requestImpersonateUser.getHref(c.view.tenantUserId)}>
            {t('manager.actFor')}
          </Link>
        </p>
        <ul>
          {c.view.signers.map((s) => (
            <li key={s.id}>
              {s.name}: {s.signedAt ? t('sign.signed') : t('sign.notSigned')}
            </li>
          ))}
        </ul>
      </section>
      <section className="panel">
        <h2>{t('manager.actions')}</h2>
        <p className="hero-actions">
          {can('GenerateTIC') ? (
            <button type="button" className="button button-primary" disabled={act.isPending} onClick={() => act.mutate({ action: 'GenerateTIC' })}>
              {t('manager.generateTic')}
            </button>
          ) : null}
          {can('Approve') ? (
            <button type="button" className="button button-primary" disabled={act.isPending} onClick={() => act.mutate({ action: 'Approve' })}>
              {t('manager.approve')}
            </button>
          ) : null}
        </p>
        {can('ReturnForChanges') ? (
          <div>
            <label className="field">
              <span>{t('manager.reasons')}</span>
              <textarea rows={4} value={reasons} onChange={(e) => setReasons(e.target.value)} />
            </label>
            <button type="button" className="button button-danger" disabled={reasonList.length === 0 || act.isPending} onClick={() => act.mutate({ action: 'ReturnForChanges', body: { reasons: reasonList } })}>
              {t('manager.returnForChanges')}
            </button>
          </div>
        ) : null}
        {c.view.availableActions.manager.length === 0 ? <p>{t('manager.nothing')}</p> : null}
      </section>
      <CaseFilePanel kind="recertification" caseId={caseId} />
    </div>
  );
}
