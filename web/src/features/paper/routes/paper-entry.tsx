import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { AddressInput, ETHNICITIES, GENDERS, LANGUAGES, MARITAL_STATUSES, MemberInput, RACES, STUDENT_ELIGIBILITIES, STUDENT_STATUSES, type PaperApplicationEntered } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useEnterPaperApplication } from '../api/paper';

function Field({ label, children, hint }: { label: string; children: (id: string) => ReactNode; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? <p className="hint">{hint}</p> : null}
      {children(id)}
    </div>
  );
}

function Choice({ label, name, codes, category }: { label: string; name: string; codes: readonly string[]; category: string }) {
  const { t } = useTranslation(['lookups', 'profile']);
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} name={name} required defaultValue="">
          <option value="">{t('profile:form.choose')}</option>
          {codes.map((code) => (
            <option key={code} value={code}>
              {t(`lookups:${category}.${code}` as never)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

const text = (f: FormData, name: string) => String(f.get(name) ?? '').trim();

/**
 * /manager/opportunities/:id/lottery/paper: the office types a mailed form (head of household,
 * household income, address, language), attaches the scan and the postmark. The head is checked by
 * the same schema as online before sending; the server checks everything again.
 */
export function PaperEntryRoute() {
  const { t } = useTranslation(['lottery', 'profile']);
  usePageTitle(t('lottery:paper.title'));
  const { id = '' } = useParams();
  const errorText = useErrorText();
  const enter = useEnterPaperApplication(id);
  const [problem, setProblem] = useState<string | null>(null);
  const [entered, setEntered] = useState<PaperApplicationEntered | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    const member = MemberInput.safeParse({
      fullName: text(f, 'fullName'),
      relationship: 'self',
      headOfHousehold: true,
      dateOfBirth: text(f, 'dateOfBirth'),
      gender: text(f, 'gender'),
      ssn: text(f, 'ssn'),
      itin: text(f, 'itin'),
      alienRegistrationNumber: text(f, 'alienRegistrationNumber'),
      races: f.getAll('races').map(String),
      ethnicity: text(f, 'ethnicity'),
      maritalStatus: text(f, 'maritalStatus'),
      studentStatus: text(f, 'studentStatus'),
      studentEligibility: text(f, 'studentEligibility'),
      email: text(f, 'email'),
      mobile: text(f, 'mobile'),
      preferredLanguage: text(f, 'language'),
    });
    const address = AddressInput.safeParse({ line1: text(f, 'line1'), line2: text(f, 'line2'), city: text(f, 'city'), state: text(f, 'state'), zip: text(f, 'zip'), mailingSameAsLiving: true });
    const issue = member.error?.issues[0] ?? address.error?.issues[0];
    const scan = f.get('scan');
    if (issue || !member.success || !address.success) {
      setProblem(issue ? `${t(`profile:member.${String(issue.path[0])}` as never, { defaultValue: String(issue.path[0]) })}: ${issue.message}` : t('lottery:paper.required'));
      return;
    }
    if (!(scan instanceof File) || scan.size === 0) {
      setProblem(`${t('lottery:paper.scan')}: ${t('lottery:paper.required')}`);
      return;
    }
    setProblem(null);
    const form = { members: [member.data], incomes: [], householdIncome: Number(text(f, 'householdIncome')), address: address.data, language: text(f, 'language'), postmarkDate: text(f, 'postmarkDate') };
    enter.mutate({ form, scan }, { onSuccess: (done) => setEntered(done), onError: (e) => setProblem(errorText(e)) });
  };

  return (
    <div className="page">
      <p>
        <Link className="back-link" to={paths.manager.lottery.getHref(id)}>
          ← {t('lottery:paper.back')}
        </Link>
      </p>
      <h1>{t('lottery:paper.title')}</h1>
      <p>{t('lottery:paper.intro')}</p>
      {entered ? (
        <p role="status" className="notice" data-testid="paper-entered">
          {t('lottery:paper.entered', { logNumber: entered.logNumber })}
        </p>
      ) : null}
      <form className="form panel" noValidate onSubmit={submit}>
        <fieldset>
          <legend>{t('lottery:paper.head')}</legend>
          <Field label={t('profile:member.fullName')}>{(fid) => <input id={fid} name="fullName" required maxLength={200} />}</Field>
          <Field label={t('profile:member.dateOfBirth')}>{(fid) => <input id={fid} name="dateOfBirth" type="date" required />}</Field>
          <Choice label={t('profile:member.gender')} name="gender" codes={GENDERS} category="gender" />
          <p className="hint">{t('lottery:paper.identifierHint')}</p>
          <Field label={t('profile:member.ssn')}>{(fid) => <input id={fid} name="ssn" autoComplete="off" />}</Field>
          <Field label={t('profile:member.itin')}>{(fid) => <input id={fid} name="itin" autoComplete="off" />}</Field>
          <Field label={t('profile:member.alienNumber')}>{(fid) => <input id={fid} name="alienRegistrationNumber" autoComplete="off" />}</Field>
          <fieldset className="radio-group">
            <legend>{t('profile:member.race')}</legend>
            {RACES.map((code) => (
              <label key={code} className="radio">
                <input type="checkbox" name="races" value={code} /> {t(`lookups:race.${code}` as never)}
              </label>
            ))}
          </fieldset>
          <Choice label={t('profile:member.ethnicity')} name="ethnicity" codes={ETHNICITIES} category="ethnicity" />
          <Choice label={t('profile:member.maritalStatus')} name="maritalStatus" codes={MARITAL_STATUSES} category="maritalStatus" />
          <Choice label={t('profile:member.studentStatus')} name="studentStatus" codes={STUDENT_STATUSES} category="studentStatus" />
          <Choice label={t('profile:member.studentEligibility')} name="studentEligibility" codes={STUDENT_ELIGIBILITIES} category="studentEligibility" />
          <Field label={t('profile:member.email')}>{(fid) => <input id={fid} name="email" type="email" maxLength={254} />}</Field>
          <Field label={t('profile:member.mobile')}>{(fid) => <input id={fid} name="mobile" type="tel" />}</Field>
        </fieldset>
        <fieldset>
          <legend>{t('lottery:paper.household')}</legend>
          <Field label={t('lottery:paper.householdIncome')}>{(fid) => <input id={fid} name="householdIncome" type="number" min={0} step="1" required />}</Field>
        </fieldset>
        <fieldset>
          <legend>{t('lottery:paper.address')}</legend>
          <Field label={t('profile:address.line1')}>{(fid) => <input id={fid} name="line1" required maxLength={200} />}</Field>
          <Field label={t('profile:address.line2')}>{(fid) => <input id={fid} name="line2" maxLength={200} />}</Field>
          <Field label={t('profile:address.city')}>{(fid) => <input id={fid} name="city" required maxLength={100} />}</Field>
          <Field label={t('profile:address.state')}>{(fid) => <input id={fid} name="state" required maxLength={50} />}</Field>
          <Field label={t('profile:address.zip')}>{(fid) => <input id={fid} name="zip" required maxLength={10} />}</Field>
        </fieldset>
        <Choice label={t('lottery:paper.language')} name="language" codes={LANGUAGES} category="language" />
        <Field label={t('lottery:paper.postmark')}>{(fid) => <input id={fid} name="postmarkDate" type="date" required />}</Field>
        <Field label={t('lottery:paper.scan')}>{(fid) => <input id={fid} name="scan" type="file" accept=".pdf,.jpg,.jpeg,.png,.heic,.tif,.tiff" required />}</Field>
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={enter.isPending}>
          {t('lottery:paper.submit')}
        </button>
      </form>
    </div>
  );
}
