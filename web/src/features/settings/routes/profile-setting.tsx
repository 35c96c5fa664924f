import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import { Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { changeLanguage } from '../../../i18n';
import { type Language } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { FONT_SIZES, setFontSize, type FontSize } from '../../../lib/font-size';
import { signature, useSaveSettings, useSettings } from '../api/settings';
import { SignatureEditor, type SignatureValue } from '../components/signature-editor';
import { SignatureOtpDialog } from '../components/signature-otp-dialog';
import { HouseholdAccessSection } from '../components/household-access-section';
import { MyDataSection } from '../components/my-data-section';
import { markLanguageChosen } from '../use-apply-settings';
import { RESIDENT_ROLES } from '../../../config/roles';
import { useSession } from '../../auth/hooks/use-session';
import { LanguageOptions } from '../../../components/ui/language-options';

/** /profile-setting (spec section 2): language, font size, notifications, signature. */
export function ProfileSettingRoute() {
  const { t, i18n } = useTranslation(['profileSetting', 'common']);
  usePageTitle(t('title'));
  const toast = useToast();
  const errorText = useErrorText();
  const settings = useSettings();
  const session = useSession();
  const save = useSaveSettings();
  const [draft, setDraft] = useState<SignatureValue | null>(null);
  const [otpOpen, setOtpOpen] = useState(false);
  // Shown at once; the server's answer confirms it (invalid values come back as medium).
  const [fontChoice, setFontChoice] = useState<FontSize | null>(null);
  const onDraft = useCallback((v: SignatureValue | null) => setDraft(v), []);
  const saveSignature = useMutation({
    mutationFn: () => signature.save(draft!.png, draft!.typed),
    onSuccess: () => toast.showSuccess(t('signature.saved')),
    onError: (error) => toast.showError(errorText(error)),
  });

  const persist = (body: Parameters<typeof save.mutate>[0]) =>
    save.mutate(body, { onSuccess: () => toast.showSuccess(t('saved')), onError: (error) => toast.showError(errorText(error)) });

  if (settings.isPending) return <Loading />;
  const s = settings.data;
  return (
    <div className="page page-narrow">
      <h1>{t('title')}</h1>
      <section aria-labelledby="language-heading" className="card">
        <h2 id="language-heading">{t('language')}</h2>
        <select
          aria-label={t('language')}
          value={i18n.resolvedLanguage}
          onChange={(e) => {
            const lang = e.target.value as Language;
            markLanguageChosen();
            void changeLanguage(lang);
            persist({ preferredReadingLanguage: lang });
          }}
        >
          <LanguageOptions />
        </select>
      </section>
      <section aria-labelledby="font-heading" className="card">
        <h2 id="font-heading">{t('fontSize')}</h2>
        <div role="radiogroup" aria-labelledby="font-heading" className="segmented" style={{ display: 'flex', gap: '1.5rem', flexWrap: 'wrap' }}>
          {FONT_SIZES.map((size: FontSize) => (
            <label key={size}>
              <input
                type="radio"
                name="font-size"
                value={size}
                checked={(fontChoice ?? s?.fontSize ?? 'medium') === size}
                onChange={() => {
                  setFontChoice(size);
                  setFontSize(size);
                  persist({ fontSize: size });
                }}
              />
              {t(`fontSizes.${size}`)}
            </label>
          ))}
        </div>
      </section>
      <section aria-labelledby="notify-heading" className="card">
        <h2 id="notify-heading">{t('notifications')}</h2>
        <label className="checkbox">
          <input type="checkbox" checked={s?.notifyByEmail ?? true} onChange={(e) => persist({ notifyByEmail: e.target.checked })} />
          {t('notifyByEmail')}
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={s?.notifyBySms ?? false} onChange={(e) => persist({ notifyBySms: e.target.checked })} />
          {t('notifyBySms')}
        </label>
        {s?.smsOptedOut ? (
          <p className="notice" role="status" data-testid="sms-opted-out">
            {t('smsOptedOut')}
          </p>
        ) : null}
      </section>
      <section aria-labelledby="signature-heading" className="card">
        <h2 id="signature-heading">{t('signature.title')}</h2>
        <p>{s?.hasSignature ? t('signature.onFile') : t('signature.none')}</p>
        <SignatureEditor onChange={onDraft} />
        <button
          type="button"
          className="button button-primary"
          onClick={() => (draft ? setOtpOpen(true) : toast.showError(t('common:errors.invalidSignatureImage')))}
        >
          {t('signature.save')}
        </button>
      </section>
      {/* Consented access: the household answers ambassadors' requests and sees what was done for it. */}
      {session && RESIDENT_ROLES.includes(session.user.role) ? <HouseholdAccessSection /> : null}
      {session && RESIDENT_ROLES.includes(session.user.role) ? <MyDataSection /> : null}
      <SignatureOtpDialog
        open={otpOpen}
        phoneNumber={session?.user.phoneNumber ?? ''}
        onClose={() => setOtpOpen(false)}
        onValidated={() => {
          setOtpOpen(false);
          saveSignature.mutate();
        }}
      />
    </div>
  );
}
