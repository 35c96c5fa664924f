import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { OtpForm } from '../../auth/components/otp-form';
import { signature } from '../api/settings';
import { wasRefused } from '../../../lib/api-client';

/** Spec section 2: the OTP validation dialog before a signature change. */
export function SignatureOtpDialog({ open, onClose, onValidated }: { open: boolean; onClose: () => void; onValidated: () => void }) {
  const { t } = useTranslation(['profileSetting', 'common']);
  const request = useMutation({ mutationFn: () => signature.requestOtp('email') });
  const validate = useMutation({ mutationFn: signature.validateOtp, onSuccess: onValidated });
  const { mutate: send, reset } = request;
  useEffect(() => {
    if (open) send();
    else reset();
  }, [open, send, reset]);
  return (
    <Dialog open={open} title={t('signature.otpTitle')} onClose={onClose}>
      <p>{request.isError ? t('common:errors.otpSendFailed') : t('common:errors.otpSent')}</p>
      <OtpForm onSubmit={(otp) => validate.mutate(otp)} onResend={() => request.mutate()} pending={validate.isPending} error={validate.isError ? t(wasRefused(validate.error) ? 'common:errors.invalidOtp' : 'common:errors.otpVerificationFailed') : null} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          {t('signature.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
