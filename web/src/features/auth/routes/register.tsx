import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { RegisterBody } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { account } from '../api/account';
import { AuthPage } from '../components/auth-page';
import { useFieldError } from '../field-error';
import { Field } from '../components/field';
import { OtpForm } from '../components/otp-form';

type Kind = 'applicant' | 'organization' | 'ambassador';

/**
 * Spec section 2: /register (applicant), /{organization}/register (joins that organisation) and
 * /housing-ambassador-register. After the account is made, the phone is confirmed with a code and
 * the email with the link we send.
 */
export function RegisterRoute({ kind }: { kind: Kind }) {
  const { t, i18n } = useTranslation(['auth', 'common']);
  const { organization } = useParams();
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const [created, setCreated] = useState<{ userId: string; email: string } | null>(null);
  const [phoneConfirmed, setPhoneConfirmed] = useState(false);
  const form = useForm({ resolver: zodResolver(RegisterBody), defaultValues: { kind, organization, preferredLanguage: (i18n.resolvedLanguage ?? 'en') as 'en' } });
  const register = useMutation({ mutationFn: account.register, onSuccess: (data) => { setCreated(data); void account.sendRegisterOtp(data.userId, 'sms'); } });
  const verify = useMutation({ mutationFn: (otp: string) => account.verifyRegisterOtp(created!.userId, otp), onSuccess: () => setPhoneConfirmed(true) });
  const title = t(`register.title.${kind}`);

  if (created) {
    return (
      <AuthPage title={title} intro={t('register.checkEmail', { email: created.email })}>
        {phoneConfirmed ? (
          <p role="status">{t('register.phoneConfirmed')}</p>
        ) : (
          <>
            <p>{t('register.phoneCode')}</p>
            <OtpForm onSubmit={(otp) => verify.mutate(otp)} onResend={() => void account.sendRegisterOtp(created.userId, 'sms')} pending={verify.isPending} error={verify.isError ? errorText(verify.error) : null} />
          </>
        )}
        <Link to={paths.login.getHref()}>{t('register.toLogin')}</Link>
      </AuthPage>
    );
  }
  const e = form.formState.errors;
  return (
    <AuthPage title={title} intro={kind === 'organization' ? t('register.organizationIntro', { organization }) : t('register.intro')}>
      <form className="form" noValidate onSubmit={form.handleSubmit((values) => register.mutate(values))}>
        {register.isError ? (
          <p className="form-error" role="alert">
            {errorText(register.error)}
          </p>
        ) : null}
        <Field label={t('register.firstName')} autoComplete="given-name" {...form.register('firstName')} error={fieldError(e.firstName?.message)} />
        <Field label={t('register.lastName')} autoComplete="family-name" {...form.register('lastName')} error={fieldError(e.lastName?.message)} />
        <Field label={t('register.username')} autoComplete="username" {...form.register('username')} error={fieldError(e.username?.message)} />
        <Field label={t('register.email')} type="email" autoComplete="email" {...form.register('email')} error={fieldError(e.email?.message)} />
        <Field label={t('register.phone')} type="tel" autoComplete="tel" {...form.register('phoneNumber')} error={fieldError(e.phoneNumber?.message)} />
        <Field label={t('register.password')} type="password" autoComplete="new-password" {...form.register('password')} error={fieldError(e.password?.message)} />
        <Field label={t('register.confirmPassword')} type="password" autoComplete="new-password" {...form.register('confirmPassword')} error={fieldError(e.confirmPassword?.message)} />
        <p>
          {t('register.agree')} <Link to={paths.auth.termsOfUse.getHref()}>{t('terms.title')}</Link> · <Link to={paths.auth.privacyPolicy.getHref()}>{t('privacy.title')}</Link>
        </p>
        <button type="submit" className="button button-primary" disabled={register.isPending}>
          {t('register.submit')}
        </button>
      </form>
    </AuthPage>
  );
}
