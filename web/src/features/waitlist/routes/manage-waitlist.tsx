import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { Dialog } from '../../../components/ui/dialog';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { WAITLIST_STATES, type WaitlistRow, type WaitlistState } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { managerWaitlist } from '../../../lib/waitlist-api';

const key = (opportunityId: string) => ['waitlist', 'manager', opportunityId] as const;

/** /manager/opportunities/:id/waitlist: the waitlist by state, paged by rank; restore a place, record a returned letter, set the check-in interval. */
export function ManageWaitlistRoute() {
  const { t } = useTranslation('lottery');
  usePageTitle(t('waitlist.manageTitle'));
  const { id = '' } = useParams();
  const errorText = useErrorText();
  const [state, setState] = useState<WaitlistState>('active');
  const pages = useInfiniteQuery({
    queryKey: [...key(id), state],
    queryFn: ({ pageParam, signal }) => managerWaitlist.page(id, state, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const rows = pages.data?.pages.flatMap((p) => p.rows) ?? [];
  return (
    <div className="page">
      <p>
        <Link className="back-link" to={paths.manager.lottery.getHref(id)}>
          ← {t('waitlist.back')}
        </Link>
      </p>
      <h1>{t('waitlist.manageTitle')}</h1>
      {pages.data ? <CheckInMonths opportunityId={id} months={pages.data.pages[0]?.checkInMonths ?? null} /> : null}
      <div className="tabs" role="group" aria-label={t('waitlist.filter')}>
        {WAITLIST_STATES.map((s) => (
          <button key={s} type="button" className={s === state ? 'button button-primary' : 'button button-secondary'} aria-pressed={s === state} onClick={() => setState(s)}>
            {t(`waitlist.states.${s}`)}
          </button>
        ))}
      </div>
      {pages.isPending ? (
        <Loading />
      ) : pages.isError ? (
        <LoadError title={t('waitlist.loadError')} detail={errorText(pages.error)} onRetry={() => void pages.refetch()} />
      ) : rows.length === 0 ? (
        <p role="status">{t('waitlist.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('waitlist.logNumber')}</th>
                <th scope="col">{t('waitlist.rank')}</th>
                <th scope="col">{t('waitlist.state')}</th>
                <th scope="col">{t('waitlist.reason')}</th>
                <th scope="col">{t('waitlist.changedAt')}</th>
                <th scope="col">{t('waitlist.lastConfirmed')}</th>
                <th scope="col">{t('waitlist.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <Row key={row.applicationId} opportunityId={id} row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {t('waitlist.loadMore')}
        </button>
      ) : null}
    </div>
  );
}

function Row({ opportunityId, row }: { opportunityId: string; row: WaitlistRow }) {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  const client = useQueryClient();
  const [restoring, setRestoring] = useState(false);
  const letter = useMutation({
    mutationFn: () => managerWaitlist.returnedLetter(opportunityId, row.applicationId),
    onSuccess: () => void client.invalidateQueries({ queryKey: key(opportunityId) }),
  });
  const label = row.logNumber ?? String(row.rank);
  return (
    <tr>
      <td>{row.logNumber ?? '—'}</td>
      <td>{row.rank}</td>
      <td>{t(`waitlist.states.${row.state}`)}</td>
      <td>{row.stateReason ? t(`waitlist.reasons.${row.stateReason as 'no_answer'}`) : '—'}</td>
      <td>{row.stateAt ? formatDate(row.stateAt) : '—'}</td>
      <td>{row.lastConfirmedAt ? formatDate(row.lastConfirmedAt) : '—'}</td>
      <td>
        <div className="action-buttons">
          {row.state !== 'active' ? (
            <button type="button" className="button button-secondary" onClick={() => setRestoring(true)}>
              {t('waitlist.restoreButton')}
              <span className="visually-hidden"> {label}</span>
            </button>
          ) : null}
          {row.state !== 'active' || row.checkInOpen ? (
            <button type="button" className="button button-secondary" disabled={letter.isPending} onClick={() => letter.mutate()}>
              {t('waitlist.letterButton')}
              <span className="visually-hidden"> {label}</span>
            </button>
          ) : null}
        </div>
        {letter.isError ? (
          <p className="form-error" role="alert">
            {errorText(letter.error)}
          </p>
        ) : null}
        {letter.isSuccess ? <p role="status">{t('waitlist.letterRecorded')}</p> : null}
        {restoring ? <RestoreDialog opportunityId={opportunityId} row={row} label={label} onClose={() => setRestoring(false)} /> : null}
      </td>
    </tr>
  );
}

function RestoreDialog({ opportunityId, row, label, onClose }: { opportunityId: string; row: WaitlistRow; label: string; onClose: () => void }) {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  const client = useQueryClient();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const restore = useMutation({
    mutationFn: () => managerWaitlist.restore(opportunityId, row.applicationId, reason.trim()),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: key(opportunityId) });
      onClose();
    },
  });
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    restore.mutate();
  }
  return (
    <Dialog open title={t('waitlist.restoreTitle', { label })} onClose={onClose}>
      <form onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={reasonId}>{t('waitlist.restoreReason')}</label>
          <textarea id={reasonId} value={reason} minLength={3} maxLength={500} required onChange={(e) => setReason(e.target.value)} />
        </div>
        {restore.isError ? (
          <p className="form-error" role="alert">
            {errorText(restore.error)}
          </p>
        ) : null}
        <div className="action-buttons">
          <button type="submit" className="button button-primary" disabled={restore.isPending || reason.trim().length < 3}>
            {t('waitlist.restoreButton')}
          </button>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('waitlist.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function CheckInMonths({ opportunityId, months }: { opportunityId: string; months: number | null }) {
  const { t } = useTranslation('lottery');
  const errorText = useErrorText();
  const client = useQueryClient();
  const fieldId = useId();
  const [value, setValue] = useState(String(months ?? 6));
  const save = useMutation({
    mutationFn: () => managerWaitlist.setMonths(opportunityId, Number(value)),
    onSuccess: () => void client.invalidateQueries({ queryKey: key(opportunityId) }),
  });
  return (
    <form
      className="filters"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="field field-inline">
        <label htmlFor={fieldId}>{t('waitlist.months')}</label>
        <div className="input-with-button">
          <input id={fieldId} type="number" min={1} max={24} step={1} value={value} onChange={(e) => setValue(e.target.value)} />
          <button type="submit" className="button button-secondary" disabled={save.isPending}>
            {t('waitlist.saveMonths')}
          </button>
        </div>
      </div>
      {save.isError ? (
        <p className="form-error" role="alert">
          {errorText(save.error)}
        </p>
      ) : null}
      {save.isSuccess ? <p role="status">{t('waitlist.monthsSaved')}</p> : null}
    </form>
  );
}
