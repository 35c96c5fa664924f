import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RENTAL_ASSISTANCE_TYPES, RentalAssistanceInput, type UploadedDocument } from '../../../lib/domain';
import { api } from '../../../lib/api-client';
import { postMultipart } from '../../../lib/multipart';
import { useFailureText } from './failure-text';
import { useHouseholdMutation } from '../api/profile';
import { CheckboxField, LookupSelect, TextField } from './fields';

type Saved = RentalAssistanceInput & { id: string };

/** Rental assistance of the housing choices (spec section 3): type, agency, active, start, amount, tenant share, proof. */
export function RentalAssistanceForm() {
  const current = useQuery({
    queryKey: ['household', 'housingChoices'],
    queryFn: ({ signal }) => api.get<{ rentalAssistance: Saved[] }>('/HousingChoices/Applicant', { signal }),
  });
  if (current.isPending) return null;
  return <AssistanceFields saved={current.data?.rentalAssistance[0]} />;
}

function AssistanceFields({ saved }: { saved?: Saved }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const failureText = useFailureText();
  const form = useForm<Record<string, unknown>>({ resolver: zodResolver(RentalAssistanceInput) as never, defaultValues: saved ?? { hasAssistance: false, active: false } });
  const proofId = useId();
  const [proof, setProof] = useState<File | null>(null);
  // The proof is stored as a household document first; the assistance then names it.
  const save = useHouseholdMutation(async (values: Record<string, unknown>) => {
    const uploaded = proof ? await postMultipart<UploadedDocument[]>('/Document/UploadDocument', { documentType: 'rental_assistance_proof' }, [proof]) : [];
    const proofDocumentId = uploaded[0]?.id ?? saved?.proofDocumentId ?? null;
    return api.post('/HousingChoices/rental-assistance', { ...values, proofDocumentId, id: saved?.id });
  });
  const errors = form.formState.errors as Record<string, never>;
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate({ ...values, type: values.type || null }))}>
      <h3>{t('profile:housing.rentalAssistance')}</h3>
      <CheckboxField label={t('profile:housing.hasAssistance')} registration={form.register('hasAssistance')} />
      {form.watch('hasAssistance') ? (
        <>
          <LookupSelect label={t('profile:housing.assistanceType')} category="rentalAssistanceType" codes={RENTAL_ASSISTANCE_TYPES} registration={form.register('type')} error={errors.type} />
          <TextField label={t('profile:housing.agency')} registration={form.register('agency')} error={errors.agency} />
          <CheckboxField label={t('profile:housing.active')} registration={form.register('active')} />
          <TextField label={t('profile:housing.startDate')} type="date" registration={form.register('startDate')} error={errors.startDate} />
          <TextField label={t('profile:housing.amount')} registration={form.register('amount')} error={errors.amount} />
          <TextField label={t('profile:housing.tenantShare')} registration={form.register('tenantShare')} error={errors.tenantShare} />
          <div className="field">
            <label htmlFor={proofId}>{t('profile:housing.proof')}</label>
            <span id={`${proofId}-hint`} className="muted">{saved?.proofDocumentId ? t('profile:housing.proofOnFile') : t('profile:housing.proofHint')}</span>
            <input id={proofId} type="file" accept="application/pdf,image/jpeg,image/png,image/heic,image/tiff" aria-describedby={`${proofId}-hint`} onChange={(e) => setProof(e.target.files?.[0] ?? null)} />
          </div>
        </>
      ) : null}
      {save.error ? <p className="form-error" role="alert">{failureText(save.error, 'entitlementUpdate')}</p> : null}
      {save.isSuccess ? <p role="status">{t('profile:form.saved')}</p> : null}
      <button type="submit" className="button button-secondary" disabled={save.isPending}>{t('profile:housing.saveAssistance')}</button>
    </form>
  );
}
