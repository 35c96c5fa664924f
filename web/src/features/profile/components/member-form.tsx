import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toLanguage } from '../../../i18n';
import {
  ETHNICITIES, GENDERS, MARITAL_STATUSES, MemberInput, RACES, RELATIONSHIPS, STUDENT_ELIGIBILITIES, STUDENT_STATUSES,
  REQUIRED, type MemberForm as MemberFormValues, type MemberView,
} from '../../../lib/domain';
import { postMultipart } from '../../../lib/multipart';
import { useFailureText } from './failure-text';
import { householdCalls, useHouseholdMutation } from '../api/profile';
import { CheckboxField, LookupSelect, TextField } from './fields';
import { FieldError } from './field-error';
import { LanguageOptions } from '../../../components/ui/language-options';

/** Add or edit a household member, validated by the shared MemberInput schema (spec sections 3 and 5). */
export function MemberForm({ member, onDone }: { member?: MemberView; onDone: () => void }) {
  const { t, i18n } = useTranslation(['profile', 'lookups']);
  const languageId = useId();
  const failureText = useFailureText();
  const onFile = Boolean(member && (member.ssnLast4 || member.itinLast4 || member.alienRegistrationNumberLast4));
  const form = useForm<MemberFormValues, unknown, MemberInput>({
    resolver: zodResolver(MemberInput),
    defaultValues: member
      ? { ...member, email: member.email ?? '', mobile: member.mobile ?? '', expectedDeliveryDate: member.expectedDeliveryDate ?? '', identifierOnFile: onFile, ssn: '', itin: '', alienRegistrationNumber: '' }
      : { races: [], disability: false, emancipatedMinor: false, pregnant: false, headOfHousehold: false, preferredLanguage: toLanguage(i18n.resolvedLanguage) },
  });
  const proofId = useId();
  const [proof, setProof] = useState<File | null>(null);
  const [proofMissing, setProofMissing] = useState(false);
  // The member is saved first, so a new one has the ID its proof document is filed under.
  const save = useHouseholdMutation(async (values: MemberInput) => {
    const saved = (await householdCalls.saveMember({ ...values, identifierOnFile: undefined, id: member?.id })) as MemberView;
    if (proof) await postMultipart('/Document/UploadDocument', { documentType: 'identity', memberId: saved.id }, [proof]);
    return saved;
  });
  const submit = form.handleSubmit((values) => {
    // Section 5: a proof document is required of every member; one on file counts.
    if (!proof && !member?.proofOnFile) {
      setProofMissing(true);
      return;
    }
    save.mutate(values, { onSuccess: onDone });
  });
  const { register, formState: { errors }, watch } = form;
  const mask = (last4: string | null) => (last4 ? t('profile:member.onFile', { last4 }) : undefined);

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      <TextField label={t('profile:member.fullName')} registration={register('fullName')} error={errors.fullName} />
      <LookupSelect label={t('profile:member.relationship')} category="relationship" codes={RELATIONSHIPS} registration={register('relationship')} error={errors.relationship} />
      <TextField label={t('profile:member.dateOfBirth')} type="date" registration={register('dateOfBirth')} error={errors.dateOfBirth} />
      <LookupSelect label={t('profile:member.gender')} category="gender" codes={GENDERS} registration={register('gender')} error={errors.gender} />
      <p className="muted">{t('profile:member.identifierHint')}</p>
      <TextField label={t('profile:member.ssn')} hint={mask(member?.ssnLast4 ?? null)} registration={register('ssn')} error={errors.ssn} />
      <TextField label={t('profile:member.itin')} hint={mask(member?.itinLast4 ?? null)} registration={register('itin')} error={errors.itin} />
      <TextField label={t('profile:member.alienNumber')} hint={mask(member?.alienRegistrationNumberLast4 ?? null)} registration={register('alienRegistrationNumber')} error={errors.alienRegistrationNumber} />
      <fieldset className="radio-group">
        <legend>{t('profile:member.race')}</legend>
        {RACES.map((code) => (
          <label key={code} className="radio">
            <input type="checkbox" value={code} {...register('races')} /> {t(`lookups:race.${code}` as never)}
          </label>
        ))}
        <FieldError id="races-error" message={errors.races?.message} />
      </fieldset>
      <LookupSelect label={t('profile:member.ethnicity')} category="ethnicity" codes={ETHNICITIES} registration={register('ethnicity')} error={errors.ethnicity} />
      <LookupSelect label={t('profile:member.maritalStatus')} category="maritalStatus" codes={MARITAL_STATUSES} registration={register('maritalStatus')} error={errors.maritalStatus} />
      <LookupSelect label={t('profile:member.studentStatus')} category="studentStatus" codes={STUDENT_STATUSES} registration={register('studentStatus')} error={errors.studentStatus} />
      <LookupSelect label={t('profile:member.studentEligibility')} category="studentEligibility" codes={STUDENT_ELIGIBILITIES} registration={register('studentEligibility')} error={errors.studentEligibility} />
      <CheckboxField label={t('profile:member.disability')} registration={register('disability')} />
      <CheckboxField label={t('profile:member.headOfHousehold')} registration={register('headOfHousehold')} />
      <FieldError id="head-error" message={errors.headOfHousehold?.message} />
      <CheckboxField label={t('profile:member.emancipatedMinor')} registration={register('emancipatedMinor')} />
      <CheckboxField label={t('profile:member.pregnant')} registration={register('pregnant')} />
      {watch('pregnant') ? (
        <>
          <TextField label={t('profile:member.childCount')} type="number" registration={register('pregnancyChildCount')} error={errors.pregnancyChildCount as never} />
          <TextField label={t('profile:member.dueDate')} type="date" registration={register('expectedDeliveryDate')} error={errors.expectedDeliveryDate} />
        </>
      ) : null}
      <TextField label={t('profile:member.email')} type="email" registration={register('email')} error={errors.email} />
      <TextField label={t('profile:member.mobile')} type="tel" registration={register('mobile')} error={errors.mobile} />
      {/* The head of household's choice is the language of the household's letters (TIC, lease). */}
      <div className="field">
        <label htmlFor={languageId}>{t('profile:member.preferredLanguage')}</label>
        <span id={`${languageId}-hint`} className="muted">{t('profile:member.preferredLanguageHint')}</span>
        <select id={languageId} aria-describedby={`${languageId}-hint`} {...register('preferredLanguage')}>
          <LanguageOptions />
        </select>
      </div>
      <div className="field">
        <label htmlFor={proofId}>{t('profile:member.proof')}</label>
        <span id={`${proofId}-hint`} className="muted">{member?.proofOnFile ? t('profile:member.proofOnFile') : t('profile:member.proofHint')}</span>
        <input
          id={proofId}
          type="file"
          accept="application/pdf,image/jpeg,image/png,image/heic,image/tiff"
          aria-describedby={`${proofId}-hint${proofMissing ? ` ${proofId}-error` : ''}`}
          aria-invalid={proofMissing || undefined}
          onChange={(e) => {
            setProof(e.target.files?.[0] ?? null);
            setProofMissing(false);
          }}
        />
        {proofMissing ? <FieldError id={`${proofId}-error`} message={REQUIRED} /> : null}
      </div>
      {save.error ? <p className="form-error" role="alert">{failureText(save.error, 'memberSave')}</p> : null}
      <div className="action-buttons">
        <button type="submit" className="button button-primary" disabled={save.isPending}>{t('profile:form.save')}</button>
        <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:form.cancel')}</button>
      </div>
    </form>
  );
}
