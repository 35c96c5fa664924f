import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';
import { setFontSize } from '../../lib/font-size';
import { useSettings } from './api/settings';

/** The saved language applies once a session, and never over a language the reader picked first. */
const LANGUAGE_APPLIED = 'languageApplied';

/**
 * The reader picked a language: the saved one, if it arrives later (a slow connection), does not
 * switch the page back.
 */
export function markLanguageChosen(): void {
  sessionStorage.setItem(LANGUAGE_APPLIED, '1');
}

/**
 * After sign-in the saved font size (and language, once) apply to the whole app. Nothing is asked
 * before: a signed-out visitor of a signed-in page is on the way to the login page.
 */
export function useApplySettings(signedIn: boolean): void {
  const { i18n } = useTranslation();
  const settings = useSettings(signedIn);
  const fontSize = settings.data?.fontSize;
  const language = settings.data?.preferredReadingLanguage;
  useEffect(() => {
    if (fontSize) setFontSize(fontSize);
  }, [fontSize]);
  useEffect(() => {
    if (language && !sessionStorage.getItem(LANGUAGE_APPLIED)) {
      markLanguageChosen();
      if (i18n.resolvedLanguage !== language) void changeLanguage(language);
    }
  }, [language, i18n]);
}
