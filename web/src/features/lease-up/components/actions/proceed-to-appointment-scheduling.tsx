import { useTranslation } from 'react-i18next';
import { Field, type ActionForm } from './form-kit';

/** The manager offers up to three appointment times (the first is required). */
export const ProceedToAppointmentScheduling: ActionForm = {
  Fields: function AppointmentSlotsFields({ id }) {
    const { t } = useTranslation('leaseupApplications');
    return (
      <>
        {[0, 1, 2].map((i) => (
          <Field key={i} id={id} name={`slot-${i}`} label={t('form.slot', { n: i + 1 })}>
            <input id={`${id}-slot-${i}`} name={`slot-${i}`} type="datetime-local" required={i === 0} />
          </Field>
        ))}
      </>
    );
  },
  read: (form) => {
    const slots = [0, 1, 2].map((i) => form.text(`slot-${i}`)).filter(Boolean).map((s) => new Date(s).toISOString());
    return slots.length ? { slots } : null;
  },
};
