import { sql } from 'kysely';
import { LANGUAGES, MESSAGES, VALIDATION_MESSAGES, type Language } from '../../domain';
import type { Translation, TranslationResult } from '../../domain/translator';
import { dataCipher } from '../../infra/data-keys';
import { translationMemoryKey as memoryKey } from '../../infra/translation-memory-key';
import type { Db } from '../../infra/db/database';
import { TranslationServerError, type MachineTranslator } from '../../infra/translate/libretranslate';
import enCommon from '../../web/src/i18n/locales/en/common.json';
import esCommon from '../../web/src/i18n/locales/es/common.json';
import zhCommon from '../../web/src/i18n/locales/zh/common.json';
import bnCommon from '../../web/src/i18n/locales/bn/common.json';

/**
 * Text translation, in this order for each text:
 * 1. the portal's own catalogue: a text that is one of its fixed messages (spec section 8 and the
 *    validation texts) is answered with that message's own translation, never sent out;
 * 2. the translation memory (PostgreSQL): a text already translated for this language pair;
 * 3. the translation server (one call for all the texts still missing), whose answers go to the
 *    memory. A server that fails or does not answer in time leaves those texts untranslated with
 *    `translationUnavailable`, never a 5xx.
 */
type Catalogue = { errors: Record<string, string>; validation: Record<string, string> };
const CATALOGUES: Record<Language, Catalogue> = { en: enCommon, es: esCommon, zh: zhCommon, bn: bnCommon } as unknown as Record<Language, Catalogue>;

/** Every fixed text in any language → its key (`errors.x` or `validation.x`) and language. */
const CATALOGUE_KEYS = (() => {
  const byText = new Map<string, { key: string; language: Language }>();
  const add = (text: string | undefined, key: string, language: Language) => {
    const normal = text?.trim();
    if (normal && !byText.has(normal)) byText.set(normal, { key, language });
  };
  // The English texts the API itself answers with come first: they are the source of the others.
  for (const [code, text] of Object.entries(MESSAGES)) add(text, `errors.${code}`, 'en');
  for (const [code, text] of Object.entries(VALIDATION_MESSAGES)) add(text, `validation.${code}`, 'en');
  for (const language of LANGUAGES) {
    for (const [code, text] of Object.entries(CATALOGUES[language].errors)) add(text, `errors.${code}`, language);
    for (const [code, text] of Object.entries(CATALOGUES[language].validation)) if (typeof text === 'string') add(text, `validation.${code}`, language);
  }
  return byText;
})();

function fromCatalogue(text: string, target: Language): { text: string; source: Language } | null {
  const hit = CATALOGUE_KEYS.get(text.trim());
  if (!hit) return null;
  const [group, code] = hit.key.split('.') as ['errors' | 'validation', string];
  const translated = CATALOGUES[target][group][code] ?? (target === 'en' ? (group === 'errors' ? MESSAGES[code as keyof typeof MESSAGES] : VALIDATION_MESSAGES[code as keyof typeof VALIDATION_MESSAGES]) : undefined);
  return typeof translated === 'string' ? { text: translated, source: hit.language } : null;
}


export interface TranslatorDeps {
  db: Db;
  /** Null when no server is configured: the routes answer 503 before reaching here. */
  server: MachineTranslator;
}

export async function translateTexts(deps: TranslatorDeps, texts: readonly string[], source: Language | 'auto', target: Language): Promise<TranslationResult> {
  const out: (Translation | null)[] = texts.map((original) => {
    if (original.trim() === '') return { text: original, original, translated: true, origin: 'same', source: null, target };
    if (source === target) return { text: original, original, translated: true, origin: 'same', source, target };
    const known = fromCatalogue(original, target);
    if (known && (source === 'auto' || source === known.source)) {
      return { text: known.text, original, translated: true, origin: 'catalogue', source: known.source, target };
    }
    return null;
  });

  // The memory, for every text still missing (one query).
  const missing = [...new Set(texts.filter((_, i) => out[i] === null))];
  const keys = new Map(missing.map((t) => [t, memoryKey(t, source, target)]));
  const remembered = new Map<string, { text: string; detected: string | null }>();
  if (keys.size > 0) {
    const rows = await deps.db.selectFrom('translation_memory').select(['text_hash', 'translated_encrypted', 'detected']).where('text_hash', 'in', [...keys.values()]).execute();
    const cipher = dataCipher();
    const byKey = new Map(rows.map((r) => [r.text_hash, r]));
    for (const [text, key] of keys) {
      const row = byKey.get(key);
      if (row) remembered.set(text, { text: cipher.decrypt(row.translated_encrypted), detected: row.detected });
    }
    if (rows.length > 0) {
      await deps.db.updateTable('translation_memory').set({ used_at: sql`now()` }).where('text_hash', 'in', rows.map((r) => r.text_hash)).execute();
    }
  }

  // The server, once, for what neither knows.
  const toSend = missing.filter((t) => !remembered.has(t));
  const fresh = new Map<string, { text: string; detected: string | null }>();
  let unavailable = false;
  if (toSend.length > 0) {
    try {
      const answers = await deps.server.translate(toSend, source, target);
      const cipher = dataCipher();
      const rows = toSend.map((text, i) => {
        fresh.set(text, answers[i]!);
        return {
          text_hash: keys.get(text)!,
          source,
          target,
          original_encrypted: cipher.encrypt(text),
          translated_encrypted: cipher.encrypt(answers[i]!.text),
          detected: answers[i]!.detected,
        };
      });
      await deps.db.insertInto('translation_memory').values(rows).onConflict((oc) => oc.column('text_hash').doNothing()).execute();
    } catch (error) {
      if (!(error instanceof TranslationServerError)) throw error;
      unavailable = true;
    }
  }

  const translations = texts.map((original, i): Translation => {
    const done = out[i];
    if (done) return done;
    const memory = remembered.get(original);
    if (memory) return { text: memory.text, original, translated: true, origin: 'memory', source: memory.detected ?? (source === 'auto' ? null : source), target };
    const server = fresh.get(original);
    if (server) return { text: server.text, original, translated: true, origin: 'server', source: server.detected ?? (source === 'auto' ? null : source), target };
    return { text: original, original, translated: false, origin: 'none', source: source === 'auto' ? null : source, target };
  });
  return unavailable ? { translations, code: 'translationUnavailable' } : { translations };
}
