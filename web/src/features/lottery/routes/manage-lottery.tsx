import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import type { LotteryManagerAction, LotteryView } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { downloadRankedCsv, useLottery, useLotteryAction, useRanked } from '../api/lottery';

/** /manager/opportunities/:id/lottery: close, draw, invite in rank order, and follow who was invited and why. */
export function ManageLotteryRoute() {
  const { t } = useTranslation('lottery');
  usePageTitle(t('manage.title'));
  const { id = '' } = useParams();
  const errorText = useErrorText();
  const lottery = useLottery(id);
  return (
    <div className="page">
      <p>
        <Link className="back-link" to={paths.manager.opportunities.getHref()}>
          ← {t('manage.back')}
        </Link>
      </p>
      <h1>{t('manage.title')}</h1>
      {lottery.isPending ? (
        <Loading />
      ) : lottery.isError ? (
        <LoadError title={t('manage.loadError')} detail={errorText(lottery.error)} onRetry={() => void lottery.refetch()} />
      ) : (
        <>
          <LotteryStatus view={lottery.data} />
          <LotteryActions opportunityId={id} view={lottery.data} />
          <RankedList opportunityId={id} drawn={lottery.data.draw !== null} revision={`${lottery.data.draw?.resultHash ?? ''}:${lottery.data.invited}:${lottery.data.skipped}`} />
        </>
      )}
    </div>
  );
}

function LotteryStatus({ view }: { view: LotteryView }) {
  const { t } = useTranslation('lottery');
  return (
    <section className="panel" data-testid="lottery-status">
      <h2>{t(`manage.stage.${view.stage}`)}</h2>
      <dl className="facts">
        <dt>{t('manage.deadline')}</dt>
        <dd>{formatDate(view.deadline)}</dd>
        <dt>{t('draw.units')}</dt>
        <dd>{view.units}</dd>
        <dt>{t('draw.seedHash')}</dt>
        <dd className="hex-value">{view.seedHash}</dd>
        {/* Views projected before the freeze existed have none of its fields. */}
        {view.frozen ? (
          <>
            <dt>{t('manage.frozenEntries')}</dt>
            <dd data-testid="lottery-frozen-entries">{view.frozen.entries}</dd>
            <dt>{t('manage.frozenHash')}</dt>
            <dd className="hex-value" data-testid="lottery-frozen-hash">
              {view.frozen.listHash}
            </dd>
          </>
        ) : view.listFreezesAt ? (
          <>
            <dt>{t('manage.freezesAt')}</dt>
            <dd>{formatDate(view.listFreezesAt)}</dd>
          </>
        ) : null}
        {view.paperEntries ? (
          <>
            <dt>{t('manage.paperEntries')}</dt>
            <dd>{view.paperEntries}</dd>
          </>
        ) : null}
        {view.draw ? (
          <>
            <dt>{t('draw.publicValue')}</dt>
            <dd>{view.publicValue}</dd>
            <dt>{t('draw.entries')}</dt>
            <dd>{view.draw.entries}</dd>
            <dt>{t('draw.resultHash')}</dt>
            <dd className="hex-value">{view.draw.resultHash}</dd>
          </>
        ) : null}
        <dt>{t('manage.invited')}</dt>
        <dd data-testid="lottery-invited">{view.invited}</dd>
        <dt>{t('manage.skipped')}</dt>
        <dd>{view.skipped}</dd>
        <dt>{t('manage.leased')}</dt>
        {/* Views projected before leases were counted have no count: none counted yet. */}
        <dd data-testid="lottery-leased">{t('manage.leasedOf', { leased: view.leased ?? 0, units: view.units })}</dd>
        {view.waitlist !== null ? (
          <>
            <dt>{t('manage.waitlist')}</dt>
            <dd>{view.waitlist}</dd>
          </>
        ) : null}
      </dl>
      {view.freezeBlockedBy?.length ? (
        <p role="alert" className="notice">
          {t('manage.freezeBlocked', { pairs: view.freezeBlockedBy.join('; ') })}
        </p>
      ) : null}
      {view.pendingInvitations > 0 ? (
        <p role="status">{view.paused ? t('manage.pausedPending', { count: view.pendingInvitations }) : t('manage.inviting', { count: view.pendingInvitations })}</p>
      ) : null}
      <p className="action-buttons">
        {view.frozen || view.draw ? <Link to={paths.public.lotteryResults.getHref(view.opportunityId)}>{t('manage.publicResults')}</Link> : null}
        {view.draw ? <Link to={paths.manager.waitlist.getHref(view.opportunityId)}>{t('waitlist.manageLink')}</Link> : null}
        {view.availableActions.manager.includes('EnterPaperApplication') ? <Link to={paths.manager.paperEntry.getHref(view.opportunityId)}>{t('manage.paperLink')}</Link> : null}
        {view.listFreezesAt ? <Link to={paths.manager.duplicates.getHref(view.opportunityId)}>{t('manage.duplicatesLink')}</Link> : null}
        {view.listFreezesAt ? <Link to={paths.manager.printQueue.getHref()}>{t('manage.printQueueLink')}</Link> : null}
      </p>
      {view.batches.length > 0 ? (
        <>
          <h3>{t('manage.batches')}</h3>
          <ul>
            {view.batches.map((b) => (
              <li key={`${b.at}-${b.because}`}>{t('manage.batch', { date: formatDate(b.at), invited: b.invited, skipped: b.skipped, because: b.because })}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** One form per action the lottery offers now (its view lists them). */
function LotteryActions({ opportunityId, view }: { opportunityId: string; view: LotteryView }) {
  const { t } = useTranslation('lottery');
  const id = useId();
  const toast = useToast();
  const errorText = useErrorText();
  const act = useLotteryAction(opportunityId);
  const offered = new Set(view.availableActions.manager);
  const submit = (action: LotteryManagerAction, read: (form: FormData) => object) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    act.mutate({ action, body: read(new FormData(event.currentTarget)) }, { onSuccess: () => toast.showSuccess(t(`manage.done.${action}`)), onError: (e) => toast.showError(errorText(e)) });
  };
  if (offered.size === 0) return null;
  return (
    <section className="panel" aria-labelledby={`${id}-actions`}>
      <h2 id={`${id}-actions`}>{t('manage.actions')}</h2>
      {offered.has('Draw') ? (
        <form className="inline-form" onSubmit={submit('Draw', (f) => ({ publicValue: String(f.get('publicValue') ?? '') }))}>
          <div className="field">
            <label htmlFor={`${id}-public`}>{t('manage.publicValueLabel')}</label>
            <input id={`${id}-public`} name="publicValue" required maxLength={200} />
            <p className="hint">{t('manage.publicValueHint')}</p>
          </div>
          <button type="submit" className="button button-primary" disabled={act.isPending}>
            {t('manage.draw')}
          </button>
        </form>
      ) : null}
      {offered.has('FreezeList') ? (
        <p className="action-buttons">
          <button type="button" className="button button-primary" disabled={act.isPending} onClick={() => act.mutate({ action: 'FreezeList', body: {} }, { onSuccess: () => toast.showSuccess(t('manage.done.FreezeList')), onError: (e) => toast.showError(errorText(e)) })}>
            {t('manage.freeze')}
          </button>
        </p>
      ) : null}
      {offered.has('UnitReopened') ? (
        <form className="inline-form" onSubmit={submit('UnitReopened', (f) => ({ unit: String(f.get('unit') ?? '') }))}>
          <div className="field">
            <label htmlFor={`${id}-unit`}>{t('manage.reopenUnit')}</label>
            <input id={`${id}-unit`} name="unit" required maxLength={40} />
          </div>
          <button type="submit" className="button button-primary" disabled={act.isPending}>
            {t('manage.reopen')}
          </button>
        </form>
      ) : null}
      {offered.has('InviteNext') ? (
        <form className="inline-form" onSubmit={submit('InviteNext', (f) => ({ count: Number(f.get('count')) }))}>
          <div className="field">
            <label htmlFor={`${id}-count`}>{t('manage.countLabel')}</label>
            <input id={`${id}-count`} name="count" type="number" min={1} max={100000} defaultValue={Math.max(1, view.units * 3)} required />
          </div>
          <button type="submit" className="button button-primary" disabled={act.isPending}>
            {t('manage.invite')}
          </button>
        </form>
      ) : null}
      {offered.has('ExtendDeadline') ? (
        <form className="inline-form" onSubmit={submit('ExtendDeadline', (f) => ({ deadline: String(f.get('deadline') ?? '') }))}>
          <div className="field">
            <label htmlFor={`${id}-deadline`}>{t('manage.newDeadline')}</label>
            <input id={`${id}-deadline`} name="deadline" type="date" required />
          </div>
          <button type="submit" className="button button-secondary" disabled={act.isPending}>
            {t('manage.extend')}
          </button>
        </form>
      ) : null}
      <p className="action-buttons">
        {offered.has('PauseInvitations') ? (
          <button type="button" className="button button-secondary" disabled={act.isPending} onClick={() => act.mutate({ action: 'PauseInvitations', body: {} }, { onError: (e) => toast.showError(errorText(e)) })}>
            {t('manage.pause')}
          </button>
        ) : null}
        {offered.has('ResumeInvitations') ? (
          <button type="button" className="button button-secondary" disabled={act.isPending} onClick={() => act.mutate({ action: 'ResumeInvitations', body: {} }, { onError: (e) => toast.showError(errorText(e)) })}>
            {t('manage.resume')}
          </button>
        ) : null}
      </p>
      {offered.has('Close') ? (
        <form className="inline-form" onSubmit={submit('Close', (f) => ({ reason: String(f.get('reason') ?? '') }))}>
          <div className="field">
            <label htmlFor={`${id}-reason`}>{t('manage.closeReason')}</label>
            <input id={`${id}-reason`} name="reason" required maxLength={2000} />
          </div>
          <button type="submit" className="button button-danger" disabled={act.isPending}>
            {t('manage.close')}
          </button>
        </form>
      ) : null}
    </section>
  );
}

/** The ranked list, a page at a time by cursor (the rank after which the next page starts). */
function RankedList({ opportunityId, drawn, revision }: { opportunityId: string; drawn: boolean; revision: string }) {
  const { t } = useTranslation('lottery');
  const toast = useToast();
  const [cursors, setCursors] = useState<number[]>([0]);
  const after = cursors.at(-1) ?? 0;
  const page = useRanked(opportunityId, after, revision);
  if (!drawn) return null;
  return (
    <section className="panel">
      <h2>{t('manage.ranked')}</h2>
      <p>
        <button type="button" className="button button-secondary" onClick={() => void downloadRankedCsv(opportunityId).catch(() => toast.showError(t('manage.exportFailed')))}>
          {t('manage.export')}
        </button>
      </p>
      {page.isPending ? (
        <Loading />
      ) : page.isError ? null : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('manage.ranked')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('manage.rank')}</th>
                <th scope="col">{t('manage.logNumber')}</th>
                <th scope="col">{t('manage.status')}</th>
                <th scope="col">{t('manage.householdSize')}</th>
                <th scope="col">{t('manage.groups')}</th>
              </tr>
            </thead>
            <tbody>
              {page.data.rows.map((r) => (
                <tr key={r.applicationId}>
                  <td>{r.rank}</td>
                  <td>{r.status === 'waitlisted' || r.status === 'skipped' ? r.logNumber : <Link to={paths.app.application.getHref(r.applicationId)}>{r.logNumber}</Link>}</td>
                  <td>{r.skipReason ? t('manage.skippedReason') : t(`manage.rowStatus.${r.status === 'waitlisted' || r.status === 'skipped' ? r.status : 'invited'}`)}</td>
                  <td>{r.householdSize}</td>
                  <td>{r.groups.map((g) => t(`groups.${g as 'disability'}`)).join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="action-buttons">
        <button type="button" className="button button-secondary" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
          {t('manage.previous')}
        </button>
        <button type="button" className="button button-secondary" disabled={!page.data?.next} onClick={() => page.data?.next && setCursors((c) => [...c, page.data.next!])}>
          {t('manage.next')}
        </button>
      </p>
    </section>
  );
}
