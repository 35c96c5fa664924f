import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import type { OtpChannel } from '../../../lib/domain';
import { getPendingUserId } from '../../../lib/session';
import { account } from '../api/account';
import { AuthPage } from '../components/auth-page';
import { NoPendingSignIn } from '../components/no-pending-sign-in';

/** Choose where the sign-in code goes: email or a text message to the phone on file. */
export function ChooseOtpMethodRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const userId = getPendingUserId();
  const send = useMutation({
    mutationFn: (channel: OtpChannel) => account.sendOtp(userId!, channel),
    onSuccess: () => {
      toast.showSuccess(t('common:errors.otpSent'));
      void navigate(`${paths.auth.verifyOtp.getHref()}${location.search}`);
    },
    onError: () => toast.showError(t('common:errors.otpSendFailed')),
  });
  if (!userId) return <NoPendingSignIn title={t('chooseOtp.title')} message="userIdNotFoundForOtp" />;
  return (
    <AuthPage title={t('chooseOtp.title')} intro={t('chooseOtp.intro')}>
      <div className="form">
        <button type="button" className="button button-primary" onClick={() => send.mutate('email')} disabled={send.isPending}>
          {t('chooseOtp.email')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => send.mutate('sms')} disabled={send.isPending}>
          {t('chooseOtp.sms')}
        </button>
      </div>
    </AuthPage>
  );
}
