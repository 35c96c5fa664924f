import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, toLanguage } from '../../i18n';
import { markLanguageChosen } from '../../features/settings/use-apply-settings';
import { LanguageOptions } from '../ui/language-options';

export function LanguagePicker() {
  const { t, i18n } = useTranslation('common');
  const id = useId();
  const value = toLanguage(i18n.resolvedLanguage ?? i18n.language);
  return (
    <div className="language-picker">
      <label htmlFor={id}>{t('layout.language')}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          markLanguageChosen();
          void changeLanguage(toLanguage(event.target.value));
        }}
      >
        <LanguageOptions />
      </select>
    </div>
  );
}
