import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../domain';
import { LETTER_TEXT, letterText } from '../../infra/letters/text';

describe('letter text: every key in every language, none falling back to English', () => {
  const keys = Object.keys(LETTER_TEXT.en).sort();

  it.each(LANGUAGES)('%s has every key of the letters, each with text', (language) => {
    const text = LETTER_TEXT[language];
    expect(Object.keys(text).sort()).toEqual(keys);
    for (const key of keys) expect(text[key as keyof typeof text].trim(), `${language}.${key}`).not.toBe('');
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s is translated: sentences differ from English', (language) => {
    for (const key of ['ticTitle', 'leaseTitle', 'certifyStatement', 'leaseStatement', 'signedStamp'] as const) expect(LETTER_TEXT[language][key]).not.toBe(LETTER_TEXT.en[key]);
  });

  it('placeholders are the same in every language', () => {
    const slots = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const language of LANGUAGES) for (const key of keys) expect(slots(LETTER_TEXT[language][key as keyof typeof LETTER_TEXT.en]), `${language}.${key}`).toEqual(slots(LETTER_TEXT.en[key as keyof typeof LETTER_TEXT.en]));
  });

  it('lookup labels come from the web app translations', () => {
    expect(letterText('es').label('relationship', 'spouse')).not.toBe('spouse');
    expect(letterText('bn').label('incomeType', 'employment')).toBe('চাকরি');
  });
});
