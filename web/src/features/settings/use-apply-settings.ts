import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';
import { setFontSize } from '../../lib/font-size';
import { useSettings } from './api/settings';

/** After sign-in the saved font size (and language, once) apply to the whole app. */
export function useApplySettings(): void {
  const { i18n } = useTranslation();
  const settings = useSettings();
  const fontSize = settings.data?.fontSize;
  const language = settings.data?.preferredReadingLanguage;
  useEffect(() => {
    if (fontSize) setFontSize(fontSize);
  }, [fontSize]);
  useEffect(() => {
    if (language && !sessionStorage.getItem('languageApplied')) {
      sessionStorage.setItem('languageApplied', '1');
      if (i18n.resolvedLanguage !== language) void changeLanguage(language);
    }
  }, [language, i18n]);
}
