import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/validation-text';
import { account } from '../api/account';
import { AuthPage } from '../components/auth-page';
import { Field } from '../components/field';
import { OtpForm } from '../components/otp-form';

/** /forget-username: the email; a code goes to it; /forget-username/verify-otp shows the username. */
export function ForgetUsernameRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const navigate = useNavigate();
  const [missing, setMissing] = useState(false);
  const send = useMutation({ mutationFn: (email: string) => account.forgotUsername(email), onSuccess: (_d, email) => void navigate(paths.auth.forgetUsernameOtp.getHref(email)) });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setMissing(!email);
    if (email) send.mutate(email);
  }
  return (
    <AuthPage title={t('forgetUsername.title')} intro={t('forgetUsername.intro')}>
      <form className="form" onSubmit={submit} noValidate>
        <Field label={t('register.email')} name="email" type="email" autoComplete="email" error={missing ? t('common:login.required') : undefined} />
        <button type="submit" className="button button-primary" disabled={send.isPending}>
          {t('forgetUsername.submit')}
        </button>
      </form>
      <Link to={paths.login.getHref()}>{t('register.toLogin')}</Link>
    </AuthPage>
  );
}

export function ForgetUsernameOtpRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const verify = useMutation({ mutationFn: (otp: string) => account.forgotUsername(email, otp) });
  return (
    <AuthPage title={t('forgetUsername.title')} intro={t('forgetUsername.codeSent')}>
      {verify.data?.username ? (
        <p role="status" className="result">
          {t('forgetUsername.yourUsername')} <strong>{verify.data.username}</strong>
        </p>
      ) : (
        <OtpForm onSubmit={(otp) => verify.mutate(otp)} onResend={() => void account.forgotUsername(email)} pending={verify.isPending} error={verify.isError ? errorText(verify.error) : null} />
      )}
      <Link to={paths.login.getHref()}>{t('register.toLogin')}</Link>
    </AuthPage>
  );
}
