import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LANGUAGES, MESSAGES, VALIDATION_MESSAGES, AddressInput, IncomeInput, MemberInput, AssetInput, UploadFields } from '../../domain';
import { validationTextKey } from '../../web/src/lib/validation-text';

/**
 * Every check's message reaches a reader in their language. Each section-5 text has a
 * code translated in all four languages (English identical to the domain text), and any text the
 * web app meets (a schema's message, an API answer, even one with no code) resolves to a key that
 * exists in es, zh and bn and does not repeat the English.
 */
const LOCALES = fileURLToPath(new URL('../../web/src/i18n/locales/', import.meta.url));
type Tree = { [k: string]: string | Tree };
const common = Object.fromEntries(LANGUAGES.map((l) => [l, JSON.parse(readFileSync(`${LOCALES}${l}/common.json`, 'utf8')) as Tree]));
const lookup = (language: string, key: string) => key.split('.').reduce<string | Tree | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), common[language]);

describe('validation texts', () => {
  it('has every section-5 text in every language, English as the domain writes it', () => {
    for (const [code, text] of Object.entries(VALIDATION_MESSAGES)) {
      expect(lookup('en', `validation.${code}`), code).toBe(text);
      for (const language of LANGUAGES) expect(lookup(language, `validation.${code}`), `${language} validation.${code}`).toBeTruthy();
    }
    for (const language of LANGUAGES) expect(lookup(language, 'validation.invalid'), language).toBeTruthy();
  });

  it('translates what the forms meet, known or not, and never shows the English text in es, zh or bn', () => {
    const messages = new Set<string>([...Object.values(VALIDATION_MESSAGES), ...Object.values(MESSAGES)]);
    // What the shared schemas answer for the forms' empty and wrong values, zod's own texts included.
    const tries: [z.ZodType, unknown][] = [
      [MemberInput, {}], [MemberInput, { relationship: 'self', dateOfBirth: '2020-01-01', ssn: '12', mobile: '12', email: 'x', headOfHousehold: true }],
      [AddressInput, { sameAsLiving: false, zip: '1' }], [IncomeInput, {}], [IncomeInput, { incomeType: 'zero_income', amount: 5 }],
      [IncomeInput, { incomeType: 'employment', taxReturnYears: 'x' }], [AssetInput, {}], [AssetInput, { kind: 'BankAccounts', last4: '12a' }],
      [UploadFields, {}], [UploadFields, { documentType: 'pay_stub', replacesDocumentId: '00000000-0000-4000-8000-000000000000' }],
    ];
    for (const [schema, input] of tries) {
      const result = schema.safeParse(input);
      for (const issue of result.success ? [] : result.error.issues) messages.add(issue.message);
    }
    messages.add('A text the app has never seen');
    const problems: string[] = [];
    for (const message of messages) {
      const key = validationTextKey(message);
      const english = lookup('en', key);
      for (const language of ['es', 'zh', 'bn']) {
        const text = lookup(language, key);
        if (typeof text !== 'string' || !text) problems.push(`${language}: no ${key} for "${message}"`);
        else if (text === message || text === english) problems.push(`${language}: ${key} shows the English "${text}"`);
      }
    }
    expect(problems).toEqual([]);
    expect(messages.size).toBeGreaterThan(100);
  });
});
