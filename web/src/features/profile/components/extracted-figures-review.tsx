import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import {
  AssetInput, BANK_ACCOUNT_TYPES, IncomeInput, PAY_FREQUENCIES,
  type BankStatementFields, type ExtractableDocumentType, type ExtractedEmployerView, type ExtractedField, type ExtractionView, type IncomeView, type MemberView, type PayStubFields,
} from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import { useErrorText, useValidationText } from '../../../lib/validation-text';

/**
 * The figures read from a document, proposed for the resident to check: each one editable, the
 * ones read with low confidence highlighted. Only "Confirm and save" saves, through the asset and
 * income forms' own schemas (SaveAiExtractedData).
 */

type Values = Record<string, string>;
type Mark = { confirm: boolean; found: boolean };
type Marks = Record<string, Mark>;

const show = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const mark = (f: ExtractedField<unknown>): Mark => ({ confirm: f.confirm, found: f.value !== null });
/** The saved employment income the pay stub belongs to, if any. */
const employmentOf = (income: IncomeView | null) => (income && income.incomeType === 'employment' ? income : null);

/** The form's first values: what was read, and for a pay stub the member and start date of its saved income. */
function initialFigures(view: ExtractionView, documentType: ExtractableDocumentType, members: MemberView[], linkedIncome: IncomeView | null): { values: Values; marks: Marks } {
  if (documentType === 'bank_statement') {
    const f = view.fields as BankStatementFields;
    return {
      values: { accountType: show(f.accountType.value), institution: show(f.institution.value), last4: show(f.last4.value), balance: show(f.balance.value), annualIncome: '' },
      marks: { accountType: mark(f.accountType), institution: mark(f.institution), last4: mark(f.last4), balance: mark(f.balance), annualIncome: { confirm: true, found: false } },
    };
  }
  const f = view.fields as PayStubFields;
  const linked = employmentOf(linkedIncome);
  return {
    values: {
      employerName: show(f.employerName.value), amount: show(f.grossPay.value), frequency: show(f.frequency.value),
      memberId: linked?.memberId ?? members[0]?.id ?? '', startDate: linked && 'startDate' in linked ? linked.startDate : '',
    },
    marks: { employerName: mark(f.employerName), amount: mark(f.grossPay), frequency: mark(f.frequency) },
  };
}

/** What is saved: a bank account, or the employment income (the saved one updated, or a new one). */
function entryOf(documentType: ExtractableDocumentType, values: Values, linked: IncomeView | null, keepSavedEmployer: boolean) {
  if (documentType === 'bank_statement') {
    return { asset: { kind: 'BankAccounts', accountType: values.accountType || undefined, institution: values.institution, last4: values.last4, balance: values.balance, annualIncome: values.annualIncome } };
  }
  const { memberName: _n, annualAmount: _a, ...saved } = (linked ?? {}) as Partial<IncomeView> & Record<string, unknown>;
  // Section 5: the saved employer name changes only when the resident says so.
  const employerName = keepSavedEmployer ? (linked as { employerName: string }).employerName : values.employerName;
  return {
    income: {
      ...saved, incomeType: 'employment', memberId: values.memberId, employerName, amount: values.amount, frequency: values.frequency || undefined,
      startDate: values.startDate, jobTitle: (saved as { jobTitle?: string | null }).jobTitle ?? null, sourceName: (saved as { sourceName?: string | null }).sourceName ?? null,
    },
  };
}

export function ReviewForm({ view, documentType, members, employer, linkedIncome, onSaved, onDone }: {
  view: ExtractionView; documentType: ExtractableDocumentType; members: MemberView[]; employer: ExtractedEmployerView | null; linkedIncome: IncomeView | null; onSaved: () => void; onDone: () => void;
}) {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [useStubName, setUseStubName] = useState<'keep' | 'update' | ''>('');
  const [{ values, marks }, setState] = useState(() => initialFigures(view, documentType, members, linkedIncome));
  const set = (name: string, value: string) => setState((s) => ({ ...s, values: { ...s.values, [name]: value } }));
  const linked = employmentOf(linkedIncome);
  const asksEmployer = Boolean(linked && employer?.differs);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const body = entryOf(documentType, values, linked, asksEmployer && useStubName !== 'update');
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
  const figures = { values, marks, errors, set };
  return (
    <section className="panel extracted" aria-label={title}>
      <h3>{title}</h3>
      <p>{t('profile:extraction.intro')}</p>
      {unsureCount > 0 ? <p className="field-hint">{t('profile:extraction.unsureCount', { count: unsureCount })}</p> : null}
      <form className="form" noValidate onSubmit={submit}>
        {documentType === 'bank_statement' ? <StatementFigures {...figures} statement={view.fields as BankStatementFields} /> : null}
        {documentType === 'pay_stub' ? (
          <>
            {asksEmployer ? <EmployerChoice onStub={values.employerName ?? ''} saved={(linked as { employerName: string }).employerName} choice={useStubName} choose={setUseStubName} error={errors.employerChoice} /> : null}
            <PayStubFigures {...figures} stub={view.fields as PayStubFields} members={members} askMember={!linked} />
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

interface FiguresProps {
  values: Values;
  marks: Marks;
  errors: Record<string, string>;
  set: (name: string, value: string) => void;
}

function StatementFigures({ values, marks, errors, set, statement }: FiguresProps & { statement: BankStatementFields }) {
  const { t } = useTranslation(['profile', 'lookups']);
  return (
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
  );
}

/** Section 5: the pay stub names another employer than the saved income; the resident says which stays. */
function EmployerChoice({ onStub, saved, choice, choose, error }: { onStub: string; saved: string; choice: string; choose: (c: 'keep' | 'update') => void; error?: string }) {
  const { t } = useTranslation('profile');
  const validationText = useValidationText();
  return (
    <fieldset className="field">
      <legend>{t('documents.employerTitle')}</legend>
      <p>{t('documents.employerBody', { onPayStub: onStub, saved })}</p>
      <label className="field-checkbox"><input type="radio" name="employer-choice" checked={choice === 'update'} onChange={() => choose('update')} /> {t('documents.employerUpdate')}</label>
      <label className="field-checkbox"><input type="radio" name="employer-choice" checked={choice === 'keep'} onChange={() => choose('keep')} /> {t('documents.employerKeep')}</label>
      {error ? <span className="field-error" role="alert">{validationText(error)}</span> : null}
    </fieldset>
  );
}

function PayStubFigures({ values, marks, errors, set, stub, members, askMember }: FiguresProps & { stub: PayStubFields; members: MemberView[]; askMember: boolean }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const known: Mark = { confirm: false, found: true };
  return (
    <>
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
      {askMember ? (
        <>
          <Figure name="memberId" label={t('profile:extraction.member')} mark={known} error={errors.memberId}>
            {(props) => (
              <select {...props} value={values.memberId} onChange={(e) => set('memberId', e.target.value)}>
                <option value="">{t('profile:form.choose')}</option>
                {members.map((m) => <option key={m.id} value={m.id}>{m.fullName}</option>)}
              </select>
            )}
          </Figure>
          <Figure name="startDate" label={t('profile:extraction.startDate')} mark={known} error={errors.startDate}>
            {(props) => <input {...props} type="date" value={values.startDate} onChange={(e) => set('startDate', e.target.value)} />}
          </Figure>
        </>
      ) : null}
      <p className="muted">
        {stub.payDate.value ? t('profile:extraction.payDate', { date: formatDate(stub.payDate.value) }) : null}{' '}
        {stub.periodStart.value && stub.periodEnd.value ? t('profile:extraction.period', { from: formatDate(stub.periodStart.value), to: formatDate(stub.periodEnd.value) }) : null}
      </p>
    </>
  );
}

/** One proposed figure: its label, the input, and (when read with low confidence or not found) a highlighted hint. */
function Figure({ name, label, mark, error, hint, children }: {
  name: string; label: string; mark: Mark | undefined; error?: string; hint?: string;
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
