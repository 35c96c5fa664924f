import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, STORAGE_KEYS, type Language } from '../lib/domain-core';
import { loadNamespace, STARTUP_NAMESPACES, type Namespace } from './resources';

/** Each language named in itself, so a reader finds their own language whatever is showing. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  zh: '中文（简体）',
  bn: 'বাংলা',
};

/** The BCP 47 tag for <html lang> and Intl formatting. */
export const LOCALE_TAGS: Record<Language, string> = { en: 'en-US', es: 'es-US', zh: 'zh-CN', bn: 'bn-BD' };

export function toLanguage(value: unknown): Language {
  return (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : 'en';
}

function storedLanguage(): Language {
  try {
    return toLanguage(localStorage.getItem(STORAGE_KEYS.language));
  } catch {
    return 'en';
  }
}

export function currentLanguage(): Language {
  return toLanguage(i18n.resolvedLanguage ?? i18n.language);
}

export function localeTag(): string {
  return LOCALE_TAGS[currentLanguage()];
}

/** Spec section 1: the choice is kept in local storage; default and fallback are en. */
export async function changeLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
}

function applyLanguage(language: string): void {
  const lang = toLanguage(language);
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORAGE_KEYS.language, lang);
  } catch {
    // Storage may be full or blocked; the choice then lasts for this visit only.
  }
}

i18n.on('languageChanged', applyLanguage);

/** i18next backend: each namespace of each language from its own chunk. */
const chunkBackend = {
  type: 'backend' as const,
  init() {},
  read(language: string, namespace: string, done: (error: unknown, data: object | false) => void) {
    loadNamespace(toLanguage(language), namespace as Namespace).then(
      (data) => done(null, data),
      (error: unknown) => done(error, false),
    );
  },
};

export const i18nReady = i18n
  .use(chunkBackend)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
    // Every key exists in every language (tests/web/i18n-keys.test.ts) and a language that fails to
    // load is replaced by en in the backend, so English texts are not loaded beside another language.
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    ns: [...STARTUP_NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

export default i18n;
