import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { getPendingUserId, saveSession, setPendingUserId } from '../../../lib/session';
import { account } from '../api/account';
import { wasRefused } from '../../../lib/api-client';
import { AuthPage } from '../components/auth-page';
import { NoPendingSignIn } from '../components/no-pending-sign-in';
import { OtpForm } from '../components/otp-form';

/** Spec section 4 two-factor: a valid OTP signs the pending user in; a non-OK answer reads 'Invalid OTP'. */
export function VerifyOtpRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const toast = useToast();
  const location = useLocation();
  const userId = getPendingUserId();
  const verify = useMutation({
    mutationFn: (otp: string) => account.verifyOtp(userId!, otp),
    onSuccess: (data) => {
      setPendingUserId(null);
      toast.showSuccess(t('common:errors.otpVerified'));
      // SignedOutOnly sends the new session on to the redirect or the role's home page.
      saveSession(data);
    },
  });
  const resend = useMutation({
    mutationFn: () => account.sendOtp(userId!, 'email'),
    onSuccess: () => toast.showSuccess(t('common:errors.otpSent')),
    onError: () => toast.showError(t('common:errors.otpSendFailed')),
  });
  if (!userId) return <NoPendingSignIn title={t('verifyOtp.title')} message="userIdNotFoundForOtpVerification" />;
  return (
    <AuthPage title={t('verifyOtp.title')} intro={t('verifyOtp.intro')}>
      <OtpForm onSubmit={(otp) => verify.mutate(otp)} onResend={() => resend.mutate()} pending={verify.isPending} error={verify.isError ? t(wasRefused(verify.error) ? 'common:errors.invalidOtp' : 'common:errors.otpVerificationFailed') : null} />
      <p>
        <Link to={`${paths.auth.chooseOtpMethod.getHref()}${location.search}`}>{t('verifyOtp.otherMethod')}</Link>
      </p>
    </AuthPage>
  );
}
