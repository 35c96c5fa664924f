import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldError as HookFieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FieldError } from './field-error';
import { useLookups } from '../api/profile';

/** A labelled input with its translated error; `aria-describedby` ties the message to the field. */
export function TextField({ label, registration, error, type = 'text', hint }: { label: string; registration: UseFormRegisterReturn; error?: HookFieldError; type?: string; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? <span className="muted">{hint}</span> : null}
      <input id={id} type={type} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} {...registration} />
      <FieldError id={`${id}-error`} message={error?.message} />
    </div>
  );
}

/** A multi-line text field (an explanation, a reason), labelled and tied to its message like TextField. */
export function TextAreaField({ label, registration, error }: { label: string; registration: UseFormRegisterReturn; error?: HookFieldError }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} {...registration} />
      <FieldError id={`${id}-error`} message={error?.message} />
    </div>
  );
}

/** A yes/no question answered by two radios; the value is true, false or (unanswered) undefined. */
export function YesNoField({ legend, yes, no, registration, error }: { legend: string; yes: string; no: string; registration: UseFormRegisterReturn; error?: HookFieldError }) {
  const id = useId();
  return (
    <fieldset className="radio-group" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <label className="radio">
        <input type="radio" value="true" {...registration} /> {yes}
      </label>
      <label className="radio">
        <input type="radio" value="false" {...registration} /> {no}
      </label>
      <FieldError id={`${id}-error`} message={error?.message} />
    </fieldset>
  );
}

/**
 * The codes a lookup select offers: those `GET /api/Lookups` lists for the category, in its order
 * (an agency can retire or reorder a code there), among those the form's schema accepts; the
 * form's own list until the lookups arrive, or when they name no such category.
 */
export function offeredCodes(accepted: readonly string[], listed: readonly string[] | undefined): readonly string[] {
  if (!listed) return accepted;
  const offered = listed.filter((code) => accepted.includes(code));
  return offered.length > 0 ? offered : accepted;
}

/** A select whose options are lookup codes, labelled from the `lookups` namespace. */
export function LookupSelect({ label, category, codes, registration, error }: { label: string; category: string; codes: readonly string[]; registration: UseFormRegisterReturn; error?: HookFieldError }) {
  const id = useId();
  const { t } = useTranslation(['lookups', 'profile']);
  // Read once per session and held (spec section 3): every select shares the one answer.
  const lookups = useLookups();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined} {...registration}>
        <option value="">{t('profile:form.choose')}</option>
        {offeredCodes(codes, lookups.data?.[category]).map((code) => (
          <option key={code} value={code}>
            {t(`lookups:${category}.${code}` as never)}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={error?.message} />
    </div>
  );
}

export function CheckboxField({ label, registration }: { label: string; registration: UseFormRegisterReturn }) {
  const id = useId();
  return (
    <div className="field field-checkbox">
      <input id={id} type="checkbox" {...registration} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section className="panel" aria-label={title}>
      <div className="detail-header">
        <h2>{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}
