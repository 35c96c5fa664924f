import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import type { ManagerTenantHousehold, StartInterimBody } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useManagerHouseholds, useStartRecertification } from '../api/recertification';

/**
 * /manager/recertifications: the organisation's tenant households. The manager opens an annual or
 * interim recertification for one (and is told in words why the workflow refuses), opens its case,
 * or acts for the household through the audited impersonation page.
 */
export function ManagerHouseholdsRoute() {
  const { t } = useTranslation('recertification');
  usePageTitle(t('households.title'));
  const errorText = useErrorText();
  const households = useManagerHouseholds();
  if (households.isPending) return <Loading />;
  if (households.isError) return <LoadError title={t('loadFailed')} detail={errorText(households.error)} onRetry={() => void households.refetch()} />;
  return (
    <div className="page">
      <h1>{t('households.title')}</h1>
      <p>{t('households.intro')}</p>
      {households.data.length === 0 ? <p>{t('households.none')}</p> : null}
      <ul className="card-list">
        {households.data.map((h) => <HouseholdCard key={h.householdId} household={h} />)}
      </ul>
    </div>
  );
}

type Outcome = { tone: 'status' | 'alert'; text: string; caseId?: string };

function HouseholdCard({ household: h }: { household: ManagerTenantHousehold }) {
  const { t } = useTranslation('recertification');
  const errorText = useErrorText();
  const start = useStartRecertification();
  const [reason, setReason] = useState<StartInterimBody['reason']>('income_change');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const headingId = useId();
  const reasonId = useId();

  // The workflow's refusals, in words: an annual cycle opens only in its window; one interim a day.
  const refusal = (kind: 'annual' | 'interim', error: unknown): string => {
    const code = error instanceof ApiError ? error.code : undefined;
    if (kind === 'annual' && code === 'noRecertificationData') return t('households.annualNotYet', { opens: formatDate(h.annualOpensOn), deadline: formatDate(h.annualDeadline) });
    if (kind === 'interim' && code === 'recertificationAlreadyOpen') return t('households.interimAlreadyOpen');
    return errorText(error);
  };
  const run = (kind: 'annual' | 'interim') => {
    setOutcome(null);
    start.mutate(
      { householdId: h.householdId, kind, reason },
      {
        onSuccess: ({ caseId, started }) =>
          setOutcome({ tone: 'status', caseId, text: started ? t(kind === 'annual' ? 'households.annualStarted' : 'households.interimStarted') : t('households.annualAlreadyOpen') }),
        onError: (error) => setOutcome({ tone: 'alert', text: refusal(kind, error) }),
      },
    );
  };
  const latest = h.latestCase;
  return (
    <li className="panel" aria-labelledby={headingId} data-testid="tenant-household">
      <h2 id={headingId}>{h.name}</h2>
      <p className="muted">{t('households.unit', { building: h.building, unit: h.unitNumber })}</p>
      <p>
        {latest
          ? t('households.latest', { kind: t(`kind.${latest.kind}`), status: t(`status.${latest.status}`), deadline: formatDate(latest.deadline) })
          : t('households.noCase')}{' '}
        {latest ? <Link to={paths.manager.recertification.getHref(latest.caseId)}>{t('households.openCase', { name: h.name })}</Link> : null}
      </p>
      <p>{t('households.annualWindow', { opens: formatDate(h.annualOpensOn), deadline: formatDate(h.annualDeadline) })}</p>
      <div className="action-buttons">
        <button type="button" className="button button-primary" disabled={start.isPending} onClick={() => run('annual')}>
          {t('households.startAnnual')}
        </button>
      </div>
      <div className="field">
        <label htmlFor={reasonId}>{t('households.interimReason')}</label>
        <select id={reasonId} value={reason} onChange={(e) => setReason(e.target.value as StartInterimBody['reason'])}>
          <option value="income_change">{t('households.reason.income_change')}</option>
          <option value="household_change">{t('households.reason.household_change')}</option>
        </select>
      </div>
      <div className="action-buttons">
        <button type="button" className="button button-secondary" disabled={start.isPending} onClick={() => run('interim')}>
          {t('households.startInterim')}
        </button>
        <Link className="button button-secondary" to={paths.auth.requestImpersonateUser.getHref(h.headUserId)}>
          {t('households.actFor', { name: h.name })}
        </Link>
      </div>
      {outcome ? (
        <p className={outcome.tone === 'alert' ? 'form-error' : undefined} role={outcome.tone}>
          {outcome.text}{' '}
          {outcome.caseId ? <Link to={paths.manager.recertification.getHref(outcome.caseId)}>{t('households.openCase', { name: h.name })}</Link> : null}
        </p>
      ) : null}
    </li>
  );
}
