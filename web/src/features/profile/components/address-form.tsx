import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { AddressInput, type AddressForm as AddressValues } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { householdCalls, useHouseholdMutation } from '../api/profile';
import { CheckboxField, TextField } from './fields';

/** Living and mailing address, community board (spec section 3; line 1 rules of section 5). */
export function AddressForm({ address }: { address: AddressInput | null }) {
  const { t } = useTranslation('profile');
  const errorText = useErrorText();
  const form = useForm<AddressValues, unknown, AddressInput>({ resolver: zodResolver(AddressInput), defaultValues: address ?? { mailingSameAsLiving: true } });
  const save = useHouseholdMutation(householdCalls.saveAddress);
  const { register, formState: { errors } } = form;
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <TextField label={t('address.line1')} registration={register('line1')} error={errors.line1} />
      <TextField label={t('address.line2')} registration={register('line2')} error={errors.line2} />
      <TextField label={t('address.city')} registration={register('city')} error={errors.city} />
      <TextField label={t('address.state')} registration={register('state')} error={errors.state} />
      <TextField label={t('address.zip')} registration={register('zip')} error={errors.zip} />
      <TextField label={t('address.communityBoard')} registration={register('communityBoard')} error={errors.communityBoard} />
      <CheckboxField label={t('address.mailingSame')} registration={register('mailingSameAsLiving')} />
      {form.watch('mailingSameAsLiving') ? null : (
        <>
          <TextField label={t('address.mailingLine1')} registration={register('mailingLine1')} error={errors.mailingLine1} />
          <TextField label={t('address.mailingLine2')} registration={register('mailingLine2')} error={errors.mailingLine2} />
          <TextField label={t('address.mailingCity')} registration={register('mailingCity')} error={errors.mailingCity} />
          <TextField label={t('address.mailingState')} registration={register('mailingState')} error={errors.mailingState} />
          <TextField label={t('address.mailingZip')} registration={register('mailingZip')} error={errors.mailingZip} />
        </>
      )}
      {save.error ? <p className="form-error" role="alert">{errorText(save.error)}</p> : null}
      {save.isSuccess ? <p role="status">{t('form.saved')}</p> : null}
      <button type="submit" className="button button-primary" disabled={save.isPending}>{t('address.save')}</button>
    </form>
  );
}
