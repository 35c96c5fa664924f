import { useMutation } from '@tanstack/react-query';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import type { OtpChannel } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { profileMatch } from '../api/account';
import { AuthPage } from '../components/auth-page';
import { Field } from '../components/field';
import { OtpForm } from '../components/otp-form';

/** /lease-up-profile-matching: after 'Applicant Profile not matched', confirm the details given at login. */
export function LeaseUpProfileMatchingRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const errorText = useErrorText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const match = useMutation({ mutationFn: profileMatch.leaseUpMatch, onSuccess: (m) => void navigate(paths.auth.linkProfile.getHref({ userId: m.userId, email: m.email, phone: m.phone })) });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    match.mutate({ email: String(f.get('email')), firstName: String(f.get('firstName')), lastName: String(f.get('lastName')), phoneNumber: String(f.get('phoneNumber')) });
  }
  return (
    <AuthPage title={t('leaseUpMatching.title')} intro={t('leaseUpMatching.intro')}>
      <form className="form" onSubmit={submit}>
        {match.isError ? (
          <p className="form-error" role="alert">
            {errorText(match.error)}
          </p>
        ) : null}
        <Field label={t('register.email')} name="email" type="email" defaultValue={params.get('email') ?? ''} required />
        <Field label={t('register.firstName')} name="firstName" defaultValue={params.get('firstName') ?? ''} required />
        <Field label={t('register.lastName')} name="lastName" defaultValue={params.get('lastName') ?? ''} required />
        <Field label={t('register.phone')} name="phoneNumber" type="tel" defaultValue={params.get('phone') ?? ''} required />
        <button type="submit" className="button button-primary" disabled={match.isPending}>
          {t('profileMatching.submit')}
        </button>
      </form>
    </AuthPage>
  );
}

/** /link-profile?userId: choose where the linking code goes. */
export function LinkProfileRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const send = useMutation({
    mutationFn: (channel: OtpChannel) => profileMatch.sendLinkOtp(userId, channel),
    onSuccess: () => {
      toast.showSuccess(t('common:errors.otpSent'));
      void navigate(paths.auth.link.getHref({ userId }));
    },
    onError: () => toast.showError(t('common:errors.otpSendFailed')),
  });
  return (
    <AuthPage title={t('linkProfile.title')} intro={t('linkProfile.intro')}>
      <div className="form">
        <button type="button" className="button button-primary" onClick={() => send.mutate('email')}>
          {t('chooseOtp.email')} {params.get('email') ? `(${params.get('email')})` : ''}
        </button>
        <button type="button" className="button button-secondary" onClick={() => send.mutate('sms')}>
          {t('chooseOtp.sms')} {params.get('phone') ? `(${params.get('phone')})` : ''}
        </button>
      </div>
    </AuthPage>
  );
}

/** /link?userId: the code that links the account, then sign in. */
export function LinkRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const verify = useMutation({ mutationFn: (otp: string) => profileMatch.validateLinkOtp(userId, otp) });
  return (
    <AuthPage title={t('linkProfile.title')} intro={verify.isSuccess ? t('profileMatching.done') : t('verifyOtp.intro')}>
      {verify.isSuccess ? (
        <Link className="button button-primary" to={paths.login.getHref()}>
          {t('register.toLogin')}
        </Link>
      ) : (
        <OtpForm onSubmit={(otp) => verify.mutate(otp)} pending={verify.isPending} error={verify.isError ? errorText(verify.error) : null} />
      )}
    </AuthPage>
  );
}
