import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../lib/format';
import type { ActionForm } from './form-kit';

const when = (iso: string) => formatDateTime(iso, 'full');

/** The household books (or moves) its appointment: one of the offered times still ahead. */
export const ChooseAppointment: ActionForm = {
  Fields: function ChooseAppointmentFields({ application }) {
    const { t } = useTranslation('leaseupApplications');
    const free = application.appointmentSlots.filter((s) => Date.parse(s) > Date.now() && s !== application.appointmentAt);
    return (
      <fieldset>
        <legend>{t('form.chooseSlot')}</legend>
        {free.map((s) => (
          <label key={s} className="choice">
            <input type="radio" name="slot" value={s} required /> {when(s)}
          </label>
        ))}
      </fieldset>
    );
  },
  read: (form) => (form.text('slot') ? { slot: form.text('slot') } : null),
};
