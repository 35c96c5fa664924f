import { useEffect, useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import {
  AssetInput, BANK_ACCOUNT_TYPES, IncomeInput, PAY_FREQUENCIES,
  type BankStatementFields, type ExtractableDocumentType, type ExtractedEmployerView, type ExtractedField, type ExtractionView, type IncomeView, type MemberView, type PayStubFields,
} from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import { useErrorText, useValidationText } from '../../../lib/validation-text';
import { uploadDocument } from '../../documents/api/documents';
import { useIncome, useProfile } from '../api/profile';

/**
 * Issue 19: after a bank statement or pay stub is uploaded, its figures are read off the request
 * path (/api/v1/account-details starts the reading; this polls GetAiExtractedData) and proposed:
 * each one editable, the ones read with low confidence highlighted. Only "Confirm and save" saves,
 * through the asset and income forms' own schemas (SaveAiExtractedData). Nothing here says
 * anything about eligibility: these are the figures printed on the document.
 */
const readingQuery = (documentId: string, enabled: boolean) => ({
  queryKey: ['extraction', documentId],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<ExtractionView>('/HouseholdAssets/GetAiExtractedData', { query: { documentId }, signal }),
  enabled,
  refetchInterval: (q: { state: { data?: ExtractionView } }) => (q.state.data?.status === 'pending' ? 1500 : false),
});

type Values = Record<string, string>;
type Marks = Record<string, { confirm: boolean; found: boolean }>;

const show = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const mark = (f: ExtractedField<unknown>) => ({ confirm: f.confirm, found: f.value !== null });

export function ExtractedFigures({ documentId, documentType, members, onDone }: { documentId: string; documentType: ExtractableDocumentType; members?: MemberView[]; onDone: () => void }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const validationText = useValidationText();
  const client = useQueryClient();
  const [requested, setRequested] = useState(false);
  const [requestError, setRequestError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.post<ExtractionView>('/v1/account-details', { documentId }).then(
      () => live && setRequested(true),
      (error: unknown) => live && setRequestError(errorText(error)),
    );
    return () => {
      live = false;
    };
  }, [documentId]);
  const reading = useQuery(readingQuery(documentId, requested));
  const employer = useQuery({
    queryKey: ['extraction', documentId, 'employer'],
    queryFn: ({ signal }) => api.get<ExtractedEmployerView>('/HouseholdAssets/GetExtractedEmployer', { query: { documentId }, signal }),
    enabled: documentType === 'pay_stub' && reading.data?.status === 'ready',
  });
  const income = useIncome();
  const profile = useProfile();

  const view = reading.data;
  const title = t('profile:extraction.title');
  if (requestError) return <section className="panel extracted" aria-label={title}><p className="form-error" role="alert">{requestError}</p></section>;
  if (!view || view.status === 'pending') {
    return (
      <section className="panel extracted" aria-label={title}>
        <p role="status">{t('profile:extraction.reading')}</p>
      </section>
    );
  }
  if (view.status === 'failed') {
    return (
      <section className="panel extracted" aria-label={title}>
        <p role="alert">{validationText(view.failure) ?? t('profile:extraction.failed')}</p>
        <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:extraction.close')}</button>
      </section>
    );
  }
  if (view.confirmedAt) {
    return (
      <section className="panel extracted" aria-label={title}>
        <p role="status">{t('profile:extraction.saved')}</p>
        <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:extraction.close')}</button>
      </section>
    );
  }
  if (documentType === 'pay_stub' && employer.isPending) return <section className="panel extracted" aria-label={title}><p role="status">{t('profile:extraction.reading')}</p></section>;
  return (
    <ReviewForm
      key={view.id}
      view={view}
      documentType={documentType}
      members={members ?? profile.data?.members ?? []}
      employer={employer.data ?? null}
      linkedIncome={(income.data ?? []).find((i) => i.id === employer.data?.incomeId) ?? null}
      onSaved={() => {
        void client.invalidateQueries({ queryKey: ['household'] });
        void client.invalidateQueries({ queryKey: ['extraction', documentId] });
      }}
      onDone={onDone}
    />
  );
}

function ReviewForm({ view, documentType, members, employer, linkedIncome, onSaved, onDone }: {
  view: ExtractionView; documentType: ExtractableDocumentType; members: MemberView[]; employer: ExtractedEmployerView | null; linkedIncome: IncomeView | null; onSaved: () => void; onDone: () => void;
}) {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const validationText = useValidationText();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [useStubName, setUseStubName] = useState<'keep' | 'update' | ''>('');

  const initial = (): { values: Values; marks: Marks } => {
    if (documentType === 'bank_statement') {
      const f = view.fields as BankStatementFields;
      return {
        values: { accountType: show(f.accountType.value), institution: show(f.institution.value), last4: show(f.last4.value), balance: show(f.balance.value), annualIncome: '' },
        marks: { accountType: mark(f.accountType), institution: mark(f.institution), last4: mark(f.last4), balance: mark(f.balance), annualIncome: { confirm: true, found: false } },
      };
    }
    const f = view.fields as PayStubFields;
    const linked = linkedIncome && linkedIncome.incomeType === 'employment' ? linkedIncome : null;
    return {
      values: {
        employerName: show(f.employerName.value), amount: show(f.grossPay.value), frequency: show(f.frequency.value),
        memberId: linked?.memberId ?? members[0]?.id ?? '', startDate: linked && 'startDate' in linked ? linked.startDate : '',
      },
      marks: { employerName: mark(f.employerName), amount: mark(f.grossPay), frequency: mark(f.frequency) },
    };
  };
  const [{ values, marks }, setState] = useState(initial);
  const set = (name: string, value: string) => setState((s) => ({ ...s, values: { ...s.values, [name]: value } }));
  const stub = documentType === 'pay_stub' ? (view.fields as PayStubFields) : null;
  const statement = documentType === 'bank_statement' ? (view.fields as BankStatementFields) : null;
  const linked = linkedIncome && linkedIncome.incomeType === 'employment' ? linkedIncome : null;
  const asksEmployer = Boolean(linked && employer?.differs);

  const entry = () => {
    if (statement) return { asset: { kind: 'BankAccounts', accountType: values.accountType || undefined, institution: values.institution, last4: values.last4, balance: values.balance, annualIncome: values.annualIncome } };
    const { memberName: _n, annualAmount: _a, ...saved } = (linked ?? {}) as Partial<IncomeView> & Record<string, unknown>;
    // Section 5: the saved employer name changes only when the resident says so.
    const employerName = asksEmployer && useStubName !== 'update' ? (linked as { employerName: string }).employerName : values.employerName;
    return {
      income: {
        ...saved, incomeType: 'employment', memberId: values.memberId, employerName, amount: values.amount, frequency: values.frequency || undefined,
        startDate: values.startDate, jobTitle: (saved as { jobTitle?: string | null }).jobTitle ?? null, sourceName: (saved as { sourceName?: string | null }).sourceName ?? null,
      },
    };
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const body = entry();
    const parsed = 'asset' in body ? AssetInput.safeParse(body.asset) : IncomeInput.safeParse(body.income);
    const next: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0] ?? 'form')] ??= issue.message;
    if (asksEmployer && !useStubName) next.employerChoice = 'Required';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.post('/HouseholdAssets/SaveAiExtractedData', { documentId: view.documentId, ...('asset' in body ? { asset: parsed.data } : { income: parsed.data }) });
      onSaved();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const title = t('profile:extraction.title');
  const unsureCount = Object.values(marks).filter((m) => m.confirm).length;
  return (
    <section className="panel extracted" aria-label={title}>
      <h3>{title}</h3>
      <p>{t('profile:extraction.intro')}</p>
      {unsureCount > 0 ? <p className="field-hint">{t('profile:extraction.unsureCount', { count: unsureCount })}</p> : null}
      <form className="form" noValidate onSubmit={submit}>
        {statement ? (
          <>
            <Figure name="accountType" label={t('profile:assets.fields.accountType')} mark={marks.accountType} error={errors.accountType}>
              {(props) => (
                <select {...props} value={values.accountType} onChange={(e) => set('accountType', e.target.value)}>
                  <option value="">{t('profile:form.choose')}</option>
                  {BANK_ACCOUNT_TYPES.map((c) => <option key={c} value={c}>{t(`lookups:bankAccountType.${c}` as never)}</option>)}
                </select>
              )}
            </Figure>
            {(['institution', 'last4', 'balance'] as const).map((name) => (
              <Figure key={name} name={name} label={t(`profile:assets.fields.${name}` as never)} mark={marks[name]} error={errors[name]}>
                {(props) => <input {...props} inputMode={name === 'institution' ? undefined : 'decimal'} value={values[name]} onChange={(e) => set(name, e.target.value)} />}
              </Figure>
            ))}
            <Figure name="annualIncome" label={t('profile:assets.fields.annualIncome')} mark={marks.annualIncome} error={errors.annualIncome} hint={t('profile:extraction.notOnStatement')}>
              {(props) => <input {...props} inputMode="decimal" value={values.annualIncome} onChange={(e) => set('annualIncome', e.target.value)} />}
            </Figure>
            {statement.statementDate.value ? <p className="muted">{t('profile:extraction.statementDate', { date: formatDate(statement.statementDate.value) })}</p> : null}
          </>
        ) : null}
        {stub ? (
          <>
            {asksEmployer ? (
              <fieldset className="field">
                <legend>{t('profile:documents.employerTitle')}</legend>
                <p>{t('profile:documents.employerBody', { onPayStub: values.employerName, saved: (linked as { employerName: string }).employerName })}</p>
                <label className="field-checkbox"><input type="radio" name="employer-choice" checked={useStubName === 'update'} onChange={() => setUseStubName('update')} /> {t('profile:documents.employerUpdate')}</label>
                <label className="field-checkbox"><input type="radio" name="employer-choice" checked={useStubName === 'keep'} onChange={() => setUseStubName('keep')} /> {t('profile:documents.employerKeep')}</label>
                {errors.employerChoice ? <span className="field-error" role="alert">{validationText(errors.employerChoice)}</span> : null}
              </fieldset>
            ) : null}
            <Figure name="employerName" label={t('profile:extraction.employerName')} mark={marks.employerName} error={errors.employerName}>
              {(props) => <input {...props} value={values.employerName} onChange={(e) => set('employerName', e.target.value)} />}
            </Figure>
            <Figure name="amount" label={t('profile:extraction.grossPay')} mark={marks.amount} error={errors.amount}>
              {(props) => <input {...props} inputMode="decimal" value={values.amount} onChange={(e) => set('amount', e.target.value)} />}
            </Figure>
            <Figure name="frequency" label={t('profile:extraction.frequency')} mark={marks.frequency} error={errors.frequency}>
              {(props) => (
                <select {...props} value={values.frequency} onChange={(e) => set('frequency', e.target.value)}>
                  <option value="">{t('profile:form.choose')}</option>
                  {PAY_FREQUENCIES.map((c) => <option key={c} value={c}>{t(`lookups:payFrequency.${c}` as never)}</option>)}
                </select>
              )}
            </Figure>
            {linked ? null : (
              <>
                <Figure name="memberId" label={t('profile:extraction.member')} mark={{ confirm: false, found: true }} error={errors.memberId}>
                  {(props) => (
                    <select {...props} value={values.memberId} onChange={(e) => set('memberId', e.target.value)}>
                      <option value="">{t('profile:form.choose')}</option>
                      {members.map((m) => <option key={m.id} value={m.id}>{m.fullName}</option>)}
                    </select>
                  )}
                </Figure>
                <Figure name="startDate" label={t('profile:extraction.startDate')} mark={{ confirm: false, found: true }} error={errors.startDate}>
                  {(props) => <input {...props} type="date" value={values.startDate} onChange={(e) => set('startDate', e.target.value)} />}
                </Figure>
              </>
            )}
            <p className="muted">
              {stub.payDate.value ? t('profile:extraction.payDate', { date: formatDate(stub.payDate.value) }) : null}{' '}
              {stub.periodStart.value && stub.periodEnd.value ? t('profile:extraction.period', { from: formatDate(stub.periodStart.value), to: formatDate(stub.periodEnd.value) }) : null}
            </p>
          </>
        ) : null}
        {failure ? <p className="form-error" role="alert">{failure}</p> : null}
        <div className="action-buttons">
          <button type="submit" className="button button-primary" disabled={busy}>{t('profile:extraction.confirm')}</button>
          <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:extraction.discard')}</button>
        </div>
      </form>
    </section>
  );
}

/** One proposed figure: its label, the input, and (when read with low confidence or not found) a highlighted hint. */
function Figure({ name, label, mark, error, hint, children }: {
  name: string; label: string; mark: { confirm: boolean; found: boolean } | undefined; error?: string; hint?: string;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined; name: string }) => React.ReactNode;
}) {
  const { t } = useTranslation('profile');
  const validationText = useValidationText();
  const id = useId();
  const unsure = mark?.confirm ?? false;
  const note = hint ?? (unsure ? (mark?.found ? t('extraction.checkThis') : t('extraction.notFound')) : null);
  const described = [note ? `${id}-note` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${unsure ? ' extracted-unsure' : ''}`} data-figure={name} data-unsure={unsure ? 'true' : 'false'}>
      <label htmlFor={id}>{label}</label>
      {note ? <span id={`${id}-note`} className="extracted-note">{note}</span> : null}
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': described, name })}
      {error ? <span id={`${id}-error`} className="field-error" role="alert">{validationText(error)}</span> : null}
    </div>
  );
}

/**
 * The upload that starts a reading, on the assets screen (a bank statement) and the income screen
 * (a pay stub: its pay date, and the employment income it belongs to, if any).
 */
export function ReadFiguresUpload({ documentType, members }: { documentType: ExtractableDocumentType; members?: MemberView[] }) {
  const { t } = useTranslation('profile');
  const errorText = useErrorText();
  const income = useIncome();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [payDate, setPayDate] = useState('');
  const [incomeId, setIncomeId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [documentId, setDocumentId] = useState<string | null>(null);
  const ids = { file: useId(), payDate: useId(), income: useId() };
  const jobs = (income.data ?? []).filter((i) => i.incomeType === 'employment');

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem(t('extraction.chooseFile'));
    setBusy(true);
    setProblem(null);
    try {
      const [doc] = await uploadDocument({ documentType, incomeId: incomeId || null, payDates: documentType === 'pay_stub' ? payDate : null }, [file]);
      await client.invalidateQueries({ queryKey: ['household'] });
      setDocumentId(doc!.id);
      setFile(null);
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  if (documentId) return <ExtractedFigures documentId={documentId} documentType={documentType} members={members} onDone={() => setDocumentId(null)} />;
  const heading = t(documentType === 'bank_statement' ? 'extraction.readStatement' : 'extraction.readPayStub');
  return (
    <form className="form panel" aria-label={heading} onSubmit={submit}>
      <h3>{heading}</h3>
      <p className="muted">{t('extraction.uploadHint')}</p>
      {documentType === 'pay_stub' ? (
        <>
          <div className="field">
            <label htmlFor={ids.income}>{t('extraction.forIncome')}</label>
            <select id={ids.income} value={incomeId} onChange={(e) => setIncomeId(e.target.value)}>
              <option value="">{t('extraction.newIncome')}</option>
              {jobs.map((i) => <option key={i.id} value={i.id}>{i.memberName}: {'employerName' in i ? i.employerName : ''}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.payDate}>{t('extraction.uploadPayDate')}</label>
            <input id={ids.payDate} type="date" required value={payDate} onChange={(e) => setPayDate(e.target.value)} />
          </div>
        </>
      ) : null}
      <div className="field">
        <label htmlFor={ids.file}>{t('documents.files')}</label>
        <input id={ids.file} type="file" accept="application/pdf,image/jpeg,image/png,image/tiff" aria-describedby={problem ? `${ids.file}-error` : undefined} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        {problem ? <span id={`${ids.file}-error`} className="field-error" role="alert">{problem}</span> : null}
      </div>
      <button type="submit" className="button button-primary" disabled={busy}>{t('extraction.uploadAndRead')}</button>
    </form>
  );
}
