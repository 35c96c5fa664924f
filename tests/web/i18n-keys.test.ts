import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../domain/account';
import { MESSAGES } from '../../domain/messages';

/**
 * Every user-visible string exists in every language (spec section 1: en, es, zh, bn) and is really
 * translated: a key present in English must be present and non-empty in each other language, and
 * must not simply repeat the English text.
 */
const LOCALES_DIR = fileURLToPath(new URL('../../web/src/i18n/locales', import.meta.url));

/**
 * `namespace:key` pairs whose text may equal the English one in the listed languages (brand names,
 * numbers, codes). Keep it short: each entry is a string nobody translates.
 */
const SAME_AS_ENGLISH_ALLOWED: Record<string, readonly string[]> = {
  // "No" (the email-verified column's answer) is the same word in Spanish.
  'ambassador:users.no': ['es'],
  // The case file's "No" (student, disability) likewise.
  'caseFile:no': ['es'],
  // The operator console's "No" (not overdue) likewise.
  'operator:no': ['es'],
  // The profile's self-employment answer "No" likewise.
  'profile:special.no': ['es'],
  // The alert's message language is named in that language (an endonym), whatever the page's language.
  'alerts:language.en': ['es', 'zh', 'bn'],
  'alerts:language.es': ['es', 'zh', 'bn'],
  'alerts:language.zh': ['es', 'zh', 'bn'],
  'alerts:language.bn': ['es', 'zh', 'bn'],
  // The boroughs keep their English names in Spanish.
  'alerts:area.bronx': ['es'],
  'alerts:area.kings': ['es'],
  'alerts:area.new_york': ['es'],
  'alerts:area.queens': ['es'],
  'alerts:area.richmond': ['es'],
  'opportunityEditor:areas.bronx': ['es'],
  'opportunityEditor:areas.kings': ['es'],
  'opportunityEditor:areas.new_york': ['es'],
  'opportunityEditor:areas.queens': ['es'],
  'opportunityEditor:areas.richmond': ['es'],
};

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

function load(language: string, namespace: string): Map<string, string> {
  return flatten(JSON.parse(readFileSync(join(LOCALES_DIR, language, `${namespace}.json`), 'utf8')) as Tree);
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();

const namespaces = readdirSync(join(LOCALES_DIR, 'en'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''))
  .sort();
const others = LANGUAGES.filter((language) => language !== 'en');

describe('translations', () => {
  it('has the same namespaces in every language', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'dashboard', 'leaseupApplications', 'opportunities', 'sideMenu']));
    for (const language of others) {
      const files = readdirSync(join(LOCALES_DIR, language)).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
      expect(files.sort(), `namespaces of ${language}`).toEqual(namespaces);
    }
  });

  it('translates every error code of domain/messages.ts (common:errors.<code>)', () => {
    for (const language of LANGUAGES) {
      const common = load(language, 'common');
      for (const code of Object.keys(MESSAGES)) {
        expect(common.get(`errors.${code}`)?.trim(), `${language} common:errors.${code}`).toBeTruthy();
      }
    }
  });

  it('keeps the English error texts identical to the spec catalogue', () => {
    const common = load('en', 'common');
    for (const [code, text] of Object.entries(MESSAGES)) expect(common.get(`errors.${code}`), code).toBe(text);
  });

  for (const namespace of namespaces) {
    describe(namespace, () => {
      const english = load('en', namespace);

      it('has no empty English text', () => {
        for (const [key, text] of english) expect(text.trim(), `en ${namespace}:${key}`).not.toBe('');
      });

      for (const language of others) {
        it(`is fully translated into ${language}`, () => {
          const translated = load(language, namespace);
          const problems: string[] = [];
          for (const [key, englishText] of english) {
            const id = `${namespace}:${key}`;
            const text = translated.get(key);
            if (text === undefined) problems.push(`${id} is missing`);
            else if (!text.trim()) problems.push(`${id} is empty`);
            else if (text === englishText && !SAME_AS_ENGLISH_ALLOWED[id]?.includes(language)) {
              problems.push(`${id} repeats the English text "${englishText}"`);
            } else if (placeholders(text).join() !== placeholders(englishText).join()) {
              problems.push(`${id} has placeholders ${placeholders(text).join()} instead of ${placeholders(englishText).join()}`);
            }
          }
          for (const key of translated.keys()) if (!english.has(key)) problems.push(`${namespace}:${key} is not in English (stale)`);
          expect(problems).toEqual([]);
        });
      }
    });
  }
});
