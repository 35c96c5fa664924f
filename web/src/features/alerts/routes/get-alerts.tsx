import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import { publicAlerts } from '../api/alerts';
import { AlertCriteriaFields, type AlertFormValues } from '../components/alert-criteria-fields';

/**
 * `/get-alerts`, public: a visitor saves an alert with only an e-mail address or a mobile number;
 * nothing is sent until they confirm (the e-mail's link, or YES to the text).
 */
export function GetAlertsRoute() {
  const { t, i18n } = useTranslation('alerts');
  usePageTitle(t('public.title'));
  const errorText = useErrorText();
  const [by, setBy] = useState<'email' | 'sms'>('email');
  const [contact, setContact] = useState('');
  const [missing, setMissing] = useState(false);
  const [values, setValues] = useState<AlertFormValues>({ criteria: {}, frequency: 'immediate', language: (['en', 'es', 'zh', 'bn'].includes(i18n.language) ? i18n.language : 'en') as AlertFormValues['language'] });
  const send = useMutation({ mutationFn: publicAlerts.subscribe });

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = contact.trim();
    setMissing(!value);
    if (!value) return;
    send.mutate({ ...values, criteria: { ...values.criteria, useProfile: false }, ...(by === 'email' ? { email: value } : { phone: value }) } as Parameters<typeof publicAlerts.subscribe>[0]);
  }

  return (
    <div className="page page-narrow">
      <h1>{t('public.title')}</h1>
      <p className="lead">{t('public.intro')}</p>
      {send.isSuccess ? (
        <p role="status">{send.data.channel === 'email' ? t('public.sentEmail') : t('public.sentSms')}</p>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          {send.isError ? (
            <p className="form-error" role="alert">
              {errorText(send.error)}
            </p>
          ) : null}
          <fieldset className="radio-group">
            <legend>{t('public.by')}</legend>
            {(['email', 'sms'] as const).map((c) => (
              <label key={c} className="radio">
                <input type="radio" name="by" value={c} checked={by === c} onChange={() => setBy(c)} />
                {t(`channel.${c}`)}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="alert-contact">{by === 'email' ? t('public.email') : t('public.phone')}</label>
            <input
              id="alert-contact"
              type={by === 'email' ? 'email' : 'tel'}
              autoComplete={by === 'email' ? 'email' : 'tel'}
              value={contact}
              onChange={(e) => setContact(e.currentTarget.value)}
              aria-invalid={missing || undefined}
              aria-describedby={missing ? 'alert-contact-error' : undefined}
            />
            {missing ? (
              <p id="alert-contact-error" className="field-error">
                {t('public.required')}
              </p>
            ) : null}
          </div>
          <AlertCriteriaFields signedIn={false} values={values} onChange={setValues} />
          <button type="submit" className="button button-primary" disabled={send.isPending}>
            {t('public.submit')}
          </button>
        </form>
      )}
    </div>
  );
}
