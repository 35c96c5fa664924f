import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../../lib/api-client';
import type { OpportunityDetail } from '../../../../lib/domain';
import { Field, endOfDay, type ActionForm } from './form-kit';

/** The manager offers units of the opportunity, with an optional expiry date. */
export const OfferUnit: ActionForm = {
  Fields: function OfferUnitFields({ application, id }) {
    const { t } = useTranslation('leaseupApplications');
    const units = useQuery({
      queryKey: ['opportunities', 'detail', application.opportunityId],
      queryFn: () => api.get<OpportunityDetail>(`/Opportunity/${encodeURIComponent(application.opportunityId)}`),
    });
    return (
      <>
        <fieldset>
          <legend>{t('form.chooseUnits')}</legend>
          {(units.data?.units ?? []).map((u) => (
            <label key={u.id} className="choice">
              <input type="checkbox" name="unitIds" value={u.id} /> {t('form.unitLine', { number: u.unitNumber, type: u.bedroomType, rent: u.monthlyRent })}
            </label>
          ))}
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
