import { useTranslation } from 'react-i18next';
import { Field, type ActionForm } from './form-kit';

/** The household corrects its size and income on the application. */
export const UpdateInfo: ActionForm = {
  Fields: function UpdateInfoFields({ application, id }) {
    const { t } = useTranslation('leaseupApplications');
    return (
      <>
        <Field id={id} name="householdSize" label={t('form.householdSize')}>
          <input id={`${id}-householdSize`} name="householdSize" type="number" min={1} max={20} defaultValue={application.householdSize} required />
        </Field>
        <Field id={id} name="householdIncome" label={t('form.householdIncome')}>
          <input id={`${id}-householdIncome`} name="householdIncome" type="number" min={0} defaultValue={application.householdIncome} required />
        </Field>
      </>
    );
  },
  read: (form) => {
    const size = Number(form.text('householdSize'));
    const income = Number(form.text('householdIncome'));
    return form.text('householdSize') && form.text('householdIncome') && Number.isInteger(size) && size >= 1 && income >= 0 ? { householdSize: size, householdIncome: income } : null;
  },
};
