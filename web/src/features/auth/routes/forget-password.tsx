import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { account } from '../api/account';
import { AuthPage } from '../components/auth-page';
import { Field } from '../components/field';

/** Asks for the email; the same answer whether or not an account exists. Failure: 'Something went wrong'. */
export function ForgetPasswordRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const [missing, setMissing] = useState(false);
  const send = useMutation({ mutationFn: account.forgetPassword });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setMissing(!email);
    if (email) send.mutate(email);
  }
  return (
    <AuthPage title={t('forgetPassword.title')} intro={t('forgetPassword.intro')}>
      {send.isSuccess ? (
        <p role="status">{t('forgetPassword.sent')}</p>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          {send.isError ? (
            <p className="form-error" role="alert">
              {t('common:errors.forgotPasswordFailed')}
            </p>
          ) : null}
          <Field label={t('register.email')} name="email" type="email" autoComplete="email" error={missing ? t('common:login.required') : undefined} />
          <button type="submit" className="button button-primary" disabled={send.isPending}>
            {t('forgetPassword.submit')}
          </button>
        </form>
      )}
      <Link to={paths.login.getHref()}>{t('register.toLogin')}</Link>
    </AuthPage>
  );
}
