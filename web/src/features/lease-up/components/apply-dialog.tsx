import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { api } from '../../../lib/api-client';
import { Dialog } from '../../../components/ui/dialog';
import { paths } from '../../../config/paths';
import { ApplyBody, type OpportunityDetail } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useSession } from '../../auth/hooks/use-session';
import { useApply } from '../api/apply';

type FieldError = 'householdSize' | 'householdIncome' | 'terms';

function toNumber(value: FormDataEntryValue | null): number {
  const text = typeof value === 'string' ? value.trim().replace(/,/g, '') : '';
  return text === '' ? Number.NaN : Number(text);
}

/** Spec section 2: the Apply button and its dialog (household size and income, terms, cancel or submit). */
export function ApplyButton({ opportunity }: { opportunity: OpportunityDetail }) {
  const { t } = useTranslation('opportunities');
  const [open, setOpen] = useState(false);
  const session = useSession();
  const userId = session?.user.userId ?? '';
  // `check-application-status`: one application per household per lottery, so point to it when it exists.
  const status = useQuery({
    queryKey: ['applications', 'status', opportunity.id, userId],
    queryFn: ({ signal }) =>
      api.get<{ applied: boolean; applicationId: string | null }>(
        `/LeaseUpApplication/check-application-status/${encodeURIComponent(opportunity.id)}/${encodeURIComponent(userId)}`,
        { signal },
      ),
    enabled: !!userId,
  });
  return (
    <>
      {status.data?.applied && status.data.applicationId ? (
        <p className="notice">
          {t('apply.alreadyApplied')} <Link to={paths.app.application.getHref(status.data.applicationId)}>{t('apply.viewApplication')}</Link>
        </p>
      ) : null}
      <button type="button" className="button button-primary button-large" onClick={() => setOpen(true)}>
        {t('apply.button')}
      </button>
      <Dialog open={open} title={t('apply.title', { name: opportunity.name })} onClose={() => setOpen(false)}>
        <ApplyForm opportunity={opportunity} onCancel={() => setOpen(false)} />
      </Dialog>
    </>
  );
}

function ApplyForm({ opportunity, onCancel }: { opportunity: OpportunityDetail; onCancel: () => void }) {
  const { t } = useTranslation('opportunities');
  const errorText = useErrorText();
  const session = useSession();
  const navigate = useNavigate();
  const applyMutation = useApply();
  const [errors, setErrors] = useState<Set<FieldError>>(new Set());
  const ids = { size: useId(), income: useId(), terms: useId() };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = ApplyBody.safeParse({
      opportunityId: opportunity.id,
      householdSize: toNumber(form.get('householdSize')),
      householdIncome: toNumber(form.get('householdIncome')),
      agreeToTerms: form.get('agreeToTerms') === 'on',
    });
    if (!parsed.success) {
      const found = new Set<FieldError>();
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'householdSize' || field === 'householdIncome') found.add(field);
        if (field === 'agreeToTerms') found.add('terms');
      }
      setErrors(found);
      return;
    }
    setErrors(new Set());
    applyMutation.mutate(parsed.data, {
      onSuccess: ({ applicationId }) => void navigate(paths.app.application.getHref(applicationId)),
    });
  }

  const described = (field: FieldError, id: string) => (errors.has(field) ? `${id}-error` : undefined);
  const defaultSize = session && session.user.householdSize > 0 ? session.user.householdSize : 1;

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p>{t('apply.intro')}</p>
      {applyMutation.isError ? (
        <p className="form-error" role="alert">
          {errorText(applyMutation.error)}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={ids.size}>{t('apply.householdSize')}</label>
        <input
          id={ids.size}
          name="householdSize"
          type="number"
          inputMode="numeric"
          min={1}
          max={20}
          step={1}
          defaultValue={defaultSize}
          required
          aria-invalid={errors.has('householdSize') || undefined}
          aria-describedby={described('householdSize', ids.size)}
        />
        {errors.has('householdSize') ? (
          <p id={`${ids.size}-error`} className="field-error">
            {t('apply.errors.householdSize')}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={ids.income}>{t('apply.householdIncome')}</label>
        <input
          id={ids.income}
          name="householdIncome"
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          required
          aria-invalid={errors.has('householdIncome') || undefined}
          aria-describedby={described('householdIncome', ids.income)}
        />
        {errors.has('householdIncome') ? (
          <p id={`${ids.income}-error`} className="field-error">
            {t('apply.errors.householdIncome')}
          </p>
        ) : null}
      </div>
      <div className="field field-checkbox">
        <input
          id={ids.terms}
          name="agreeToTerms"
          type="checkbox"
          required
          aria-invalid={errors.has('terms') || undefined}
          aria-describedby={described('terms', ids.terms)}
        />
        <label htmlFor={ids.terms}>{t('apply.terms')}</label>
      </div>
      {errors.has('terms') ? (
        <p id={`${ids.terms}-error`} className="field-error">
          {t('apply.errors.terms')}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('apply.cancel')}
        </button>
        <button type="submit" className="button button-primary" disabled={applyMutation.isPending}>
          {applyMutation.isPending ? t('apply.submitting') : t('apply.submit')}
        </button>
      </div>
    </form>
  );
}
