import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { OtpForm } from '../../auth/components/otp-form';
import { signature } from '../api/settings';
import { ApiError, wasRefused } from '../../../lib/api-client';
import type { OtpChannel } from '../../../lib/domain';

/**
 * Spec section 2: the OTP validation dialog before a signature change. The person chooses where the
 * code goes (the spec's `{phoneNumber, otpChannel}`); with no phone on file the text option says so.
 */
export function SignatureOtpDialog({ open, onClose, onValidated, phoneNumber }: { open: boolean; onClose: () => void; onValidated: () => void; phoneNumber: string }) {
  const { t } = useTranslation(['profileSetting', 'common']);
  const noPhoneId = useId();
  const [channel, setChannel] = useState<OtpChannel | null>(null);
  const request = useMutation({ mutationFn: (to: OtpChannel) => signature.requestOtp(to, to === 'sms' ? phoneNumber : undefined) });
  const validate = useMutation({ mutationFn: signature.validateOtp, onSuccess: onValidated });
  const { reset } = request;
  useEffect(() => {
    if (!open) {
      reset();
      setChannel(null);
    }
  }, [open, reset]);
  const send = (to: OtpChannel) => {
    setChannel(to);
    request.mutate(to);
  };
  const sentBy = request.data?.otpChannel;
  const status = request.isError
    ? t(request.error instanceof ApiError && request.error.code === 'noPhoneNumber' ? 'common:errors.noPhoneNumber' : 'common:errors.otpSendFailed')
    : request.isSuccess
      ? t(sentBy && sentBy !== channel ? 'common:errors.otpSentByEmailOptedOut' : 'common:errors.otpSent')
      : null;
  return (
    <Dialog open={open} title={t('signature.otpTitle')} onClose={onClose}>
      <fieldset className="form">
        <legend>{t('signature.otpHow')}</legend>
        <button type="button" className="button button-secondary" onClick={() => send('email')} disabled={request.isPending}>
          {t('signature.otpByEmail')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => send('sms')} disabled={request.isPending || !phoneNumber} aria-describedby={phoneNumber ? undefined : noPhoneId}>
          {t('signature.otpBySms')}
        </button>
        {phoneNumber ? null : <p id={noPhoneId}>{t('common:errors.noPhoneNumber')}</p>}
      </fieldset>
      {status ? <p role={request.isError ? 'alert' : 'status'}>{status}</p> : null}
      {request.isSuccess && channel ? (
        <OtpForm onSubmit={(otp) => validate.mutate(otp)} onResend={() => request.mutate(channel)} pending={validate.isPending} error={validate.isError ? t(wasRefused(validate.error) ? 'common:errors.invalidOtp' : 'common:errors.otpVerificationFailed') : null} />
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          {t('signature.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
