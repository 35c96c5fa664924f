import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import type { AccessSummary, OtpChannel } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useActFor } from '../api/act-for';
import { useEndAccess, useGrantByCode, useRequestAccess } from '../api/ambassador';
import { AccessBadge } from './access-badge';

/**
 * Consented access at the ambassador's desk: ask the household (a code goes to its email
 * or phone), confirm the code they read out, act for them while access lasts, or end it.
 */
export function AccessPanel({ userId, name, access }: { userId: string; name: string; access: AccessSummary | null }) {
  const { t } = useTranslation('ambassador');
  const toast = useToast();
  const errorText = useErrorText();
  const ids = { channel: useId(), code: useId(), heading: useId() };
  const [channel, setChannel] = useState<OtpChannel>('email');
  const [code, setCode] = useState('');
  const request = useRequestAccess();
  const grant = useGrantByCode();
  const end = useEndAccess();
  const actFor = useActFor();
  const onError = (error: unknown) => toast.showError(errorText(error));
  const status = access?.status ?? null;

  return (
    <section className="panel panel-highlight" aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>{t('access.title')}</h2>
      <p>
        <AccessBadge access={access} />
      </p>
      {status === 'granted' ? (
        <p className="action-buttons">
          <button type="button" className="button button-primary" disabled={actFor.isPending} onClick={() => actFor.mutate(userId, { onError })}>
            {t('access.actFor', { name })}
          </button>
          <button type="button" className="button button-danger" disabled={end.isPending} onClick={() => end.mutate(access!.grantId, { onSuccess: () => toast.showSuccess(t('access.ended')), onError })}>
            {t('access.end')}
          </button>
        </p>
      ) : (
        <>
          <p>{t('access.explain')}</p>
          <form className="inline-form" onSubmit={(e) => { e.preventDefault(); request.mutate({ userId, channel }, { onSuccess: () => toast.showSuccess(t('access.requested')), onError }); }}>
            <div className="field">
              <label htmlFor={ids.channel}>{t('access.channel')}</label>
              <select id={ids.channel} value={channel} onChange={(e) => setChannel(e.target.value as OtpChannel)}>
                <option value="email">{t('access.channels.email')}</option>
                <option value="sms">{t('access.channels.sms')}</option>
              </select>
            </div>
            <button type="submit" className="button button-secondary" disabled={request.isPending}>
              {status === 'pending' ? t('access.resend') : t('access.request')}
            </button>
          </form>
          {status === 'pending' ? (
            <form className="inline-form" onSubmit={(e) => { e.preventDefault(); grant.mutate({ userId, code }, { onSuccess: () => { setCode(''); toast.showSuccess(t('access.granted')); }, onError }); }}>
              <div className="field">
                <label htmlFor={ids.code}>{t('access.code')}</label>
                <input id={ids.code} inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} value={code} onChange={(e) => setCode(e.target.value.trim())} />
              </div>
              <button type="submit" className="button button-primary" disabled={grant.isPending || code.length !== 6}>
                {t('access.grant')}
              </button>
            </form>
          ) : null}
        </>
      )}
    </section>
  );
}
