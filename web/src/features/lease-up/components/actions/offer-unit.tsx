import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../../lib/api-client';
import { formatMoney } from '../../../../lib/format';
import type { ApplicationDetail } from '../../../../lib/domain';
import { Field, endOfDay, type ActionForm } from './form-kit';

interface OfferableUnit {
  id: string;
  unitNumber: string;
  bedroomType: string;
  monthlyRent: number;
}

/** Units already offered on this application and still open, or accepted (held): never offered again. */
function offeredHere(application: ApplicationDetail): Set<string> {
  return new Set(application.offers.filter((o) => o.status === 'open' || o.status === 'accepted').map((o) => o.unitId));
}

/** The manager offers units of the opportunity, one per line, with an optional expiry date. */
export const OfferUnit: ActionForm = {
  Fields: function OfferUnitFields({ application, id }) {
    const { t } = useTranslation('leaseupApplications');
    // Only units no other active application holds (the API's own rule for OfferUnit).
    const units = useQuery({
      queryKey: ['lease-up', 'offerable-units', application.applicationId],
      queryFn: () => api.get<{ units: OfferableUnit[] }>(`/LeaseUpApplication/offerable-units/${encodeURIComponent(application.applicationId)}`),
    });
    const taken = offeredHere(application);
    const offerable = (units.data?.units ?? []).filter((u) => !taken.has(u.id));
    return (
      <>
        <fieldset>
          <legend>{t('form.chooseUnits')}</legend>
          {units.isSuccess && offerable.length === 0 ? <p>{t('form.noUnitsToOffer')}</p> : null}
          <ul className="choice-list">
            {offerable.map((u) => (
              <li key={u.id}>
                <label className="choice">
                  <input type="checkbox" name="unitIds" value={u.id} /> {t('form.unitLine', { number: u.unitNumber, type: u.bedroomType, rent: formatMoney(u.monthlyRent) })}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <Field id={id} name="expiresDate" label={t('form.offerExpires')}>
          <input id={`${id}-expiresDate`} name="expiresDate" type="date" />
        </Field>
      </>
    );
  },
  read: (form) => {
    const unitIds = form.all('unitIds');
    const expires = form.text('expiresDate');
    return unitIds.length ? { unitIds, ...(expires ? { expiresAt: endOfDay(expires) } : {}) } : null;
  },
};
