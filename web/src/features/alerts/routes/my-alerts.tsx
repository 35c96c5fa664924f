import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import type { AlertChannel, AlertView } from '../../../../../domain/listing-alerts';
import { useAlertActions, useMyAlerts } from '../api/alerts';
import { AlertCriteriaFields, type AlertFormValues } from '../components/alert-criteria-fields';

const EMPTY: AlertFormValues & { channel: AlertChannel } = { criteria: {}, frequency: 'immediate', language: 'en', channel: 'email' };

/** `/alerts`: the signed-in household's listing alerts: list, create, change, pause or resume, delete. */
export function MyAlertsRoute() {
  const { t, i18n } = useTranslation('alerts');
  usePageTitle(t('mine.title'));
  const errorText = useErrorText();
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const query = useMyAlerts(cursors.at(-1));
  const actions = useAlertActions();
  const [editing, setEditing] = useState<{ id: string | null; values: typeof EMPTY } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const startNew = () => setEditing({ id: null, values: { ...EMPTY, language: (['en', 'es', 'zh', 'bn'].includes(i18n.language) ? i18n.language : 'en') as AlertFormValues['language'] } });
  const startEdit = (a: AlertView) => setEditing({ id: a.id, values: { criteria: a.criteria, frequency: a.frequency, language: a.language, channel: a.channel } });
  const saving = actions.create.isPending || actions.update.isPending;
  const failure = actions.create.error ?? actions.update.error ?? actions.pause.error ?? actions.remove.error;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!editing) return;
    const input = { ...editing.values, criteria: { ...editing.values.criteria } } as Parameters<typeof actions.create.mutate>[0];
    const after = () => {
      setEditing(null);
      setSaved(t('mine.saved'));
    };
    if (editing.id) actions.update.mutate({ id: editing.id, input }, { onSuccess: after });
    else actions.create.mutate(input, { onSuccess: after });
  }

  return (
    <div className="page">
      <h1>{t('mine.title')}</h1>
      <p className="lead">{t('mine.intro')}</p>
      {saved ? <p role="status">{saved}</p> : null}
      {failure ? (
        <p className="form-error" role="alert">
          {errorText(failure)}
        </p>
      ) : null}
      {editing ? (
        <form className="form panel" onSubmit={submit} aria-labelledby="alert-form-title">
          <h2 id="alert-form-title">{editing.id ? t('mine.editTitle') : t('mine.newTitle')}</h2>
          <AlertCriteriaFields signedIn values={editing.values} onChange={(values) => setEditing({ ...editing, values: { ...editing.values, ...values } })} />
          <fieldset className="radio-group">
            <legend>{t('form.channel')}</legend>
            {(['email', 'sms'] as const).map((c) => (
              <label key={c} className="radio">
                <input type="radio" name="channel" value={c} checked={editing.values.channel === c} onChange={() => setEditing({ ...editing, values: { ...editing.values, channel: c } })} />
                {t(`channel.${c}`)}
              </label>
            ))}
          </fieldset>
          <div className="action-buttons">
            <button type="submit" className="button button-primary" disabled={saving}>
              {t('form.save')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setEditing(null)}>
              {t('form.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <p>
          <button type="button" className="button button-primary" onClick={startNew}>
            {t('mine.new')}
          </button>
        </p>
      )}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('mine.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <div className="empty" role="status">
          <p className="empty-title">{t('mine.empty')}</p>
        </div>
      ) : (
        <>
          <ul className="card-list">
            {query.data.items.map((a) => (
              <li key={a.id} className="card">
                <p className="card-title">{summary(a, t)}</p>
                <p className="card-meta">
                  {t(`status.${a.status}`)} · {t(`frequency.${a.frequency}`)} · {t(`channel.${a.channel}`)}
                </p>
                <div className="action-buttons">
                  <button type="button" className="button button-secondary" onClick={() => startEdit(a)}>
                    {t('mine.edit')}
                  </button>
                  {a.status !== 'pending_confirmation' ? (
                    <button type="button" className="button button-secondary" onClick={() => actions.pause.mutate({ id: a.id, paused: a.status === 'active' })}>
                      {a.status === 'active' ? t('mine.pause') : t('mine.resume')}
                    </button>
                  ) : null}
                  <button type="button" className="button button-danger" onClick={() => actions.remove.mutate(a.id)}>
                    {t('mine.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
          <div className="action-buttons">
            {cursors.length > 1 ? (
              <button type="button" className="button button-secondary" onClick={() => setCursors((c) => c.slice(0, -1))}>
                {t('mine.previous')}
              </button>
            ) : null}
            {query.data.nextCursor ? (
              <button type="button" className="button button-secondary" onClick={() => setCursors((c) => [...c, query.data.nextCursor ?? undefined])}>
                {t('mine.next')}
              </button>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}

/** One line saying what an alert asks for, in the reader's language. */
function summary(a: AlertView, t: TFunction<'alerts'>): string {
  const c = a.criteria;
  const parts = [c.tenure ? t(`tenure.${c.tenure}`) : t('summary.anyTenure')];
  if (c.bedroomTypes.length) parts.push(c.bedroomTypes.map((s) => t(`size.${s}`)).join(', '));
  if (c.areas.length) parts.push(c.areas.map((s) => t(`area.${s}`)).join(', '));
  return parts.join(' · ');
}
