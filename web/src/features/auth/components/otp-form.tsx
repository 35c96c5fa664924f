import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from './field';

interface OtpFormProps {
  onSubmit: (otp: string) => void;
  onResend?: () => void;
  pending?: boolean;
  error?: string | null;
}

/** The 6-digit code form shared by sign-in, forgotten username, profile matching and linking. */
export function OtpForm({ onSubmit, onResend, pending, error }: OtpFormProps) {
  const { t } = useTranslation('auth');
  const [invalid, setInvalid] = useState(false);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const otp = String(new FormData(event.currentTarget).get('otp') ?? '').trim();
    if (!/^\d{6}$/.test(otp)) return setInvalid(true);
    setInvalid(false);
    onSubmit(otp);
  }
  return (
    <form className="form" onSubmit={submit} noValidate>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <Field label={t('otp.code')} name="otp" inputMode="numeric" autoComplete="one-time-code" maxLength={6} error={invalid ? t('otp.sixDigits') : undefined} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {t('otp.verify')}
      </button>
      {onResend ? (
        <button type="button" className="button button-secondary" onClick={onResend}>
          {t('otp.resend')}
        </button>
      ) : null}
    </form>
  );
}
