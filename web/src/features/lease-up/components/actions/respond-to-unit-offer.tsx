import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../../lib/format';
import type { ActionForm } from './form-kit';

/** The household answers an open offer: accept or decline. */
export const RespondToUnitOffer: ActionForm = {
  Fields: function RespondToUnitOfferFields({ application }) {
    const { t } = useTranslation('leaseupApplications');
    return (
      <>
        <fieldset>
          <legend>{t('form.chooseOffer')}</legend>
          {application.offers
            .filter((o) => o.status === 'open')
            .map((o) => (
              <label key={o.offerId} className="choice">
                <input type="radio" name="offerId" value={o.offerId} required />{' '}
                {t('form.offerLine', { number: o.unitNumber, type: o.bedroomType, address: o.address, date: formatDate(o.expiresAt) })}
              </label>
            ))}
        </fieldset>
        <fieldset>
          <legend>{t('form.yourAnswer')}</legend>
          <label className="choice">
            <input type="radio" name="answer" value="accept" required /> {t('form.accept')}
          </label>
          <label className="choice">
            <input type="radio" name="answer" value="decline" /> {t('form.decline')}
          </label>
        </fieldset>
      </>
    );
  },
  read: (form) => (form.text('offerId') && form.text('answer') ? { offerId: form.text('offerId'), accept: form.text('answer') === 'accept' } : null),
};
