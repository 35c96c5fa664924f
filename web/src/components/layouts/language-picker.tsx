import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGE_NAMES, toLanguage } from '../../i18n';
import { LANGUAGES } from '../../lib/domain-core';
import { markLanguageChosen } from '../../features/settings/use-apply-settings';

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
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
