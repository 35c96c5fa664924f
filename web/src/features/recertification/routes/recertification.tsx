import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import type { RecertActionBody, RecertTenantAction } from '../../../lib/domain';
import { useRecertificationAction, useRecertificationStatus } from '../api/recertification';
import { CaseSummary } from '../components/case-summary';
import { ReportChange } from '../components/report-change';
import { ChoicePanel } from '../components/choice-panel';
import { SignPanel } from '../components/sign-panel';
import { TranslatableText } from '../../../components/translatable-text';
import { CaseSupport } from '../../../components/case-support';
import { WhoseMoveSentence } from '../../../components/whose-move';

/** /recertification: the case, the confirm-or-update choice, documents, signing (spec sections 2-4). */
export function RecertificationRoute() {
  const { t } = useTranslation('recertification');
  usePageTitle(t('title'));
  const status = useRecertificationStatus();
  const action = useRecertificationAction();
  const toast = useToast();
  const errorText = useErrorText();
  const [answers, setAnswers] = useState('');

  if (status.isPending) return <Loading />;
  if (status.isError) return <LoadError title={t('loadFailed')} detail={errorText(status.error)} onRetry={() => void status.refetch()} />;
  const c = status.data;
  if (!c) {
    return (
      <div className="page">
        <h1>{t('title')}</h1>
        <p>{t('noCase')}</p>
        <ReportChange />
      </div>
    );
  }
  const run = (name: RecertTenantAction, body?: RecertActionBody) =>
    action.mutate(
      { caseId: c.caseId, action: name, body },
      { onSuccess: () => toast.showSuccess(t('saved')), onError: (error) => toast.showError(errorText(error)) },
    );
  const can = (name: RecertTenantAction) => c.view.availableActions.tenant.includes(name);

  return (
    <div className="page">
      <h1>{t('title')}</h1>
      <WhoseMoveSentence kind="recertification" viewer="person" status={c.status} pendingTasks={c.view.pendingTasks} />
      {c.status === 'completed' ? (
        <p className="notice notice-success" role="status" data-testid="recertification-approved">
          {t('approved')}
        </p>
      ) : null}
      {c.status === 'expired' ? (
        <p className="notice" role="alert">
          {t('expired')}
        </p>
      ) : null}
      <section className="panel">
        <h2>{t('caseTitle')}</h2>
        <CaseSummary c={c} />
      </section>
      {can('ConfirmProfile') ? <ChoicePanel pending={action.isPending} onAction={(name) => run(name)} /> : null}
      {can('SubmitDocuments') ? (
        <section className="panel">
          <h2>{t('documents.title')}</h2>
          <p>{t('documents.intro')}</p>
          <button type="button" className="button button-primary button-large" disabled={action.isPending} onClick={() => run('SubmitDocuments')}>
            {t('documents.submit')}
          </button>
        </section>
      ) : null}
      {can('SignTIC') ? <SignPanel key={c.view.signers.filter((x) => x.signedAt).length} view={c.view} pending={action.isPending} onSign={(body) => run('SignTIC', body)} /> : null}
      {can('Resubmit') ? (
        <section className="panel">
          <h2>{t('returned.title')}</h2>
          <ul>
            {c.view.returnReasons.map((r) => (
              <li key={r}>
                <TranslatableText text={r} />
              </li>
            ))}
          </ul>
          <label className="field">
            <span>{t('returned.answer')}</span>
            <textarea value={answers} onChange={(e) => setAnswers(e.target.value)} rows={4} />
          </label>
          <button
            type="button"
            className="button button-primary"
            disabled={!answers.trim() || action.isPending}
            onClick={() => run('Resubmit', { reasons: c.view.returnReasons.map(() => answers.trim()) })}
          >
            {t('returned.resubmit')}
          </button>
        </section>
      ) : null}
      {c.status === 'active' && c.view.availableActions.tenant.length === 0 ? <p>{t('waiting')}</p> : null}
      {c.status === 'completed' ? <ReportChange /> : null}
      <CaseSupport kind="recertification" caseId={c.caseId} />
    </div>
  );
}
