import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { currentLanguage } from '../../../i18n';
import { api, ApiError } from '../../../lib/api-client';
import { getAccessToken } from '../../../lib/session';
import type { IntakeField, IntakeQuestion, IntakeTurnBody, IntakeView } from '../../../../../domain/intake';
import { useErrorText } from '../../../lib/validation-text';

const KEY = ['intake'] as const;

/** The profile label of a field (the same words as the profile forms). */
const LABELS: Record<string, string> = {
  'member.alienRegistrationNumber': 'member.alienNumber', 'member.races': 'member.race', 'member._idKind': 'assistant.idKind',
  'address.mailingSameAsLiving': 'address.mailingSame',
  'incomeQuestion.answer': 'income.question', 'assetQuestion.hasAny': 'assets.question',
  'income.memberId': 'income.member', 'income.incomeType': 'income.type', 'income.amount': 'income.amount', 'income.frequency': 'income.frequency',
  'income.employerName': 'income.fields.employerName', 'income.startDate': 'income.fields.startDate',
  'asset.kind': 'assets.kind', 'asset.description': 'assets.fields.description', 'asset.value': 'assets.fields.value', 'asset.amount': 'assets.fields.amount',
  'housingChoices.unitSize': 'housing.unitSize', 'housingChoices.preferredCounties': 'housing.preferredCounties', 'housingChoices.interests': 'housing.interests', 'housingChoices.pet': 'housing.pet',
};
/** The lookups group of a field's options. */
const OPTION_GROUPS: Record<string, string> = {
  relationship: 'relationship', gender: 'gender', races: 'race', ethnicity: 'ethnicity', maritalStatus: 'maritalStatus', studentStatus: 'studentStatus',
  studentEligibility: 'studentEligibility', incomeType: 'incomeType', frequency: 'payFrequency', kind: 'assetKind', unitSize: 'unitSize',
  preferredCounties: 'county', interests: 'housingInterest',
};

function useLabels() {
  const { t } = useTranslation(['profile', 'lookups']);
  const label = (section: string, name: string) => t(`profile:${LABELS[`${section}.${name}`] ?? `${section === 'housingChoices' ? 'housing' : section}.${name}`}` as never);
  const option = (name: string, value: string) =>
    name === '_idKind' ? t(`profile:assistant.idKinds.${value}` as never) : t(`lookups:${OPTION_GROUPS[name] ?? name}.${value}` as never, { defaultValue: value });
  return { label, option };
}

async function uploadToIntake(file: File, payDates: string): Promise<IntakeView> {
  const form = new FormData();
  if (payDates) form.append('payDates', payDates);
  form.append('files', file, file.name);
  const token = getAccessToken();
  const response = await fetch('/api/intake/document', { method: 'POST', body: form, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const body = (await response.json().catch(() => null)) as { message?: string; data?: { code?: string } } | null;
  if (!response.ok) throw new ApiError(response.status, body?.message ?? response.statusText, (body?.data?.code as never) ?? 'unknown', body?.data ?? null);
  return (body as { data: IntakeView }).data;
}

/**
 * `/profile/assistant`: the intake assistant, one question at a time in the
 * reader's language, each entry shown back before it is saved. It records answers; it never says
 * whether anyone qualifies.
 */
export function IntakeRoute() {
  const { t } = useTranslation('profile');
  usePageTitle(t('assistant.title'));
  const errorText = useErrorText();
  const client = useQueryClient();
  const view = useQuery({ queryKey: KEY, queryFn: ({ signal }) => api.get<IntakeView>('/intake', { signal }) });
  const [faq, setFaq] = useState<IntakeView['faq']>();
  const [error, setError] = useState<string | null>(null);
  const onDone = (next: IntakeView) => {
    setError(null);
    client.setQueryData(KEY, next);
    if (next.saved) void client.invalidateQueries({ queryKey: ['household'] });
  };
  const turn = useMutation({
    mutationFn: (body: IntakeTurnBody) => api.post<IntakeView>('/intake', body),
    onSuccess: (next, body) => {
      if (body.action === 'ask') setFaq(next.faq ?? []);
      onDone(next);
    },
    onError: (e) => setError(errorText(e)),
  });
  const upload = useMutation({ mutationFn: ({ file, payDates }: { file: File; payDates: string }) => uploadToIntake(file, payDates), onSuccess: onDone, onError: (e) => setError(errorText(e)) });

  if (view.isPending) return <Loading />;
  if (view.isError) return <LoadError title={t('assistant.loadFailed')} detail={errorText(view.error)} onRetry={() => void view.refetch()} />;
  const v = turn.data ?? view.data;
  const current = client.getQueryData<IntakeView>(KEY) ?? v;
  const busy = turn.isPending || upload.isPending;

  return (
    <div className="page">
      <h1>{t('assistant.title')}</h1>
      <p>{t('assistant.intro')}</p>
      <p>
        <progress max={100} value={current.completion} aria-label={t('summary.completion')} /> <strong data-testid="completion">{t('summary.percent', { percent: current.completion })}</strong>
      </p>
      {current.paused ? (
        <p className="notice" role="status">{t('assistant.paused')}</p>
      ) : (
        <section className="panel panel-highlight" aria-labelledby="intake-question" data-testid="intake-question">
          <Question key={JSON.stringify(current.question)} q={current.question} busy={busy} error={error} onTurn={(body) => turn.mutate(body)} onUpload={(file, payDates) => upload.mutate({ file, payDates })} />
          {current.saved ? <p role="status">{t('assistant.saved')}</p> : null}
        </section>
      )}
      <p className="action-buttons">
        {current.paused ? (
          <button type="button" className="button button-primary" onClick={() => void view.refetch().then((r) => r.data && client.setQueryData(KEY, r.data))}>{t('assistant.resume')}</button>
        ) : (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => turn.mutate({ action: 'pause' })}>{t('assistant.pause')}</button>
        )}
        <button type="button" className="button button-secondary" disabled={busy} onClick={() => turn.mutate({ action: 'restart' })}>{t('assistant.restart')}</button>
        <Link to={paths.app.profile.getHref()}>{t('assistant.toProfile')}</Link>
      </p>
      <FaqBox busy={busy} faq={faq} onAsk={(question) => turn.mutate({ action: 'ask', question })} />
    </div>
  );
}

function Question({ q, busy, error, onTurn, onUpload }: { q: IntakeQuestion; busy: boolean; error: string | null; onTurn: (b: IntakeTurnBody) => void; onUpload: (file: File, payDates: string) => void }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const { label, option } = useLabels();
  const errorId = useId();
  const inputId = useId();
  const [value, setValue] = useState<string>('');
  const [many, setMany] = useState<string[]>([]);
  const [file, setFile] = useState<File | null>(null);
  const [payDates, setPayDates] = useState('');
  const errorLine = error ? <p id={errorId} className="form-error" role="alert">{error}</p> : null;
  const yesNo = (onAnswer: (yes: boolean) => void) => (
    <p className="action-buttons">
      <button type="button" className="button button-primary" disabled={busy} onClick={() => onAnswer(true)}>{t('profile:form.yes')}</button>
      <button type="button" className="button button-secondary" disabled={busy} onClick={() => onAnswer(false)}>{t('profile:form.no')}</button>
    </p>
  );

  if (q.step === 'done') {
    return <h2 id="intake-question">{t('profile:assistant.done')}</h2>;
  }
  if (q.step === 'more') {
    return (
      <>
        <h2 id="intake-question">{t(`profile:assistant.more.${q.section}` as never, { count: q.onFile ?? 0 })}</h2>
        {yesNo((yes) => onTurn({ action: 'answer', answer: yes }))}
        {errorLine}
      </>
    );
  }
  if (q.step === 'confirm') {
    return (
      <>
        <h2 id="intake-question">{t('profile:assistant.confirm')}</h2>
        <dl className="summary-list">
          {Object.entries(q.entry ?? {}).map(([name, raw]) => (
            <div key={name}>
              <dt>{label(q.section, name)}</dt>
              <dd>
                {shown(name, raw, option, t)}{' '}
                <button type="button" className="link-button" disabled={busy} onClick={() => onTurn({ action: 'confirm', confirm: false, change: name })}>
                  {t('profile:form.edit')}
                  <span className="visually-hidden"> {label(q.section, name)}</span>
                </button>
              </dd>
            </div>
          ))}
        </dl>
        <p className="action-buttons">
          <button type="button" className="button button-primary" disabled={busy} onClick={() => onTurn({ action: 'confirm', confirm: true })}>{t('profile:assistant.save')}</button>
        </p>
        {errorLine}
      </>
    );
  }
  if (q.step === 'upload' && q.document) {
    const submit = (event: FormEvent) => {
      event.preventDefault();
      if (file) onUpload(file, payDates);
    };
    return (
      <form onSubmit={submit} noValidate>
        <h2 id="intake-question">
          {t('profile:assistant.upload', { document: t(`lookups:documentType.${q.document.documentType}` as never), member: q.document.memberName })}
        </h2>
        <div className="field">
          <label htmlFor={inputId}>{t('profile:assistant.file')}</label>
          <input id={inputId} type="file" accept=".pdf,.jpg,.jpeg,.png,.heic,.tif,.tiff" aria-describedby={error ? errorId : undefined} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
        {q.document.documentType === 'pay_stub' ? (
          <div className="field">
            <label htmlFor={`${inputId}-date`}>{t('profile:assistant.payDate')}</label>
            <input id={`${inputId}-date`} type="date" value={payDates} onChange={(e) => setPayDates(e.target.value)} />
          </div>
        ) : null}
        <p className="action-buttons">
          <button type="submit" className="button button-primary" disabled={busy || !file}>{t('profile:assistant.send')}</button>
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => onTurn({ action: 'skip' })}>{t('profile:assistant.later')}</button>
        </p>
        {errorLine}
      </form>
    );
  }
  const field = q.field as IntakeField | undefined;
  if (!field) return null;
  const title = label(q.section, field.name);
  if (field.kind === 'yesno') {
    return (
      <>
        <h2 id="intake-question">{title}</h2>
        {yesNo((yes) => onTurn({ action: 'answer', answer: yes }))}
        {errorLine}
      </>
    );
  }
  const send = (event: FormEvent) => {
    event.preventDefault();
    onTurn({ action: 'answer', answer: field.kind === 'multi' ? many : value });
  };
  const described = error ? errorId : undefined;
  return (
    <form onSubmit={send} noValidate>
      <h2 id="intake-question">{title}</h2>
      {field.kind === 'multi' ? (
        <fieldset aria-describedby={described}>
          <legend className="visually-hidden">{title}</legend>
          {(field.options ?? []).map((o) => (
            <label key={o} className="field-checkbox">
              <input type="checkbox" checked={many.includes(o)} onChange={(e) => setMany(e.target.checked ? [...many, o] : many.filter((x) => x !== o))} /> {option(field.name, o)}
            </label>
          ))}
        </fieldset>
      ) : (
        <div className="field">
          <label htmlFor={inputId}>{t('profile:assistant.yourAnswer')}</label>
          {field.kind === 'choice' || field.kind === 'member' ? (
            <select id={inputId} value={value} aria-invalid={Boolean(error)} aria-describedby={described} onChange={(e) => setValue(e.target.value)}>
              <option value="">{t('profile:form.choose')}</option>
              {field.kind === 'member'
                ? (q.members ?? []).map((m) => <option key={m.id} value={m.id}>{m.name}</option>)
                : (field.options ?? []).map((o) => <option key={o} value={o}>{option(field.name, o)}</option>)}
            </select>
          ) : (
            <input id={inputId} type={field.kind === 'date' ? 'date' : 'text'} inputMode={field.kind === 'number' ? 'decimal' : undefined} value={value} aria-invalid={Boolean(error)} aria-describedby={described} onChange={(e) => setValue(e.target.value)} />
          )}
        </div>
      )}
      <p className="action-buttons">
        <button type="submit" className="button button-primary" disabled={busy}>{t('profile:assistant.send')}</button>
        {field.optional ? <button type="button" className="button button-secondary" disabled={busy} onClick={() => onTurn({ action: 'skip' })}>{t('profile:assistant.skip')}</button> : null}
      </p>
      {errorLine}
    </form>
  );
}

function shown(name: string, raw: unknown, option: (name: string, value: string) => string, t: (key: never) => string): string {
  if (typeof raw === 'boolean') return raw ? t('profile:form.yes' as never) : t('profile:form.no' as never);
  if (Array.isArray(raw)) return raw.map((v) => option(name, String(v))).join(', ');
  if (raw && typeof raw === 'object') return Object.entries(raw).filter(([, on]) => on).map(([k]) => option(name, k)).join(', ');
  if (raw === null || raw === undefined || raw === '') return '—';
  return OPTION_GROUPS[name] ? option(name, String(raw)) : String(raw);
}

function FaqBox({ busy, faq, onAsk }: { busy: boolean; faq: IntakeView['faq']; onAsk: (question: string) => void }) {
  const { t } = useTranslation('profile');
  const id = useId();
  const [text, setText] = useState('');
  const language = currentLanguage();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('assistant.askTitle')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim().length >= 2) onAsk(text.trim());
        }}
      >
        <div className="field">
          <label htmlFor={id}>{t('assistant.askLabel')}</label>
          <input id={id} type="text" value={text} maxLength={500} onChange={(e) => setText(e.target.value)} />
        </div>
        <button type="submit" className="button button-secondary" disabled={busy}>{t('assistant.ask')}</button>
      </form>
      {faq ? (
        faq.length === 0 ? (
          <p role="status">{t('assistant.noAnswer')}</p>
        ) : (
          <div role="status" data-testid="intake-faq">
            {faq.map((f) => (
              <div key={f.id}>
                <h3>{f.question[language] ?? f.question.en}</h3>
                <p>{f.answer[language] ?? f.answer.en}</p>
              </div>
            ))}
          </div>
        )
      ) : null}
    </section>
  );
}
