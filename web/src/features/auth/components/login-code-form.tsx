import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from '@tanstack/react-query';
import { knownDeviceTokens, saveSession } from '../../../lib/session';
import { account } from '../api/account';

/**
 * Shown when sign-in answers 'Too many attempts' (someone else may be guessing the password): a
 * one-time code sent to the account's email signs the owner in anyway.
 */
export function LoginCodeForm({ username }: { username: string }) {
  const { t } = useTranslation('common');
  const codeId = useId();
  const [sent, setSent] = useState(false);
  const send = useMutation({ mutationFn: () => account.sendLoginCode(username), onSuccess: () => setSent(true) });
  const verify = useMutation({
    mutationFn: (otp: string) => account.loginWithCode(username, otp, knownDeviceTokens()),
    onSuccess: (data) => saveSession(data),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const otp = String(new FormData(event.currentTarget).get('otp') ?? '').trim();
    if (otp) verify.mutate(otp);
  }

  if (!sent) {
    return (
      <div className="login-code">
        <p>{t('login.codeOffer')}</p>
        {send.isError ? (
          <p className="form-error" role="alert">
            {t('errors.otpSendFailed')}
          </p>
        ) : null}
        <button type="button" className="button" onClick={() => send.mutate()} disabled={send.isPending || !username}>
          {t('login.codeSend')}
        </button>
      </div>
    );
  }
  return (
    <form className="form login-code" onSubmit={onSubmit} noValidate>
      <p role="status">{t('login.codeSent')}</p>
      {verify.isError ? (
        <p className="form-error" role="alert">
          {t('login.codeInvalid')}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={codeId}>{t('login.codeLabel')}</label>
        <input id={codeId} name="otp" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />
      </div>
      <button type="submit" className="button button-primary" disabled={verify.isPending}>
        {t('login.codeSubmit')}
      </button>
    </form>
  );
}
