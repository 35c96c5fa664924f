import { LANGUAGE_NAMES } from '../../i18n';
import { LANGUAGES } from '../../lib/domain-core';

/** The four languages as a select's options, each named in itself (and marked as such for screen readers). */
export function LanguageOptions() {
  return (
    <>
      {LANGUAGES.map((language) => (
        <option key={language} value={language} lang={language}>
          {LANGUAGE_NAMES[language]}
        </option>
      ))}
    </>
  );
}
