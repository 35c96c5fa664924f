import { z } from 'zod';
import { LANGUAGES } from './session-data';

/**
 * Text translation (spec sections 1 and 7, `POST /api/Translator` and `/api/Translator/batch`):
 * free text people write to each other (a manager's reason, a ticket reply, a
 * chat message) shown in the reader's language, the original one click away.
 */
export const TRANSLATOR_MAX_TEXT = 5_000;
export const TRANSLATOR_MAX_BATCH = 50;
/** Characters of one batch call, all texts together. */
export const TRANSLATOR_MAX_BATCH_CHARS = 20_000;

const Target = z.enum(LANGUAGES, { error: 'Choose a language: en, es, zh or bn' });
const Source = z.enum([...LANGUAGES, 'auto'], { error: 'Choose a language: auto, en, es, zh or bn' }).default('auto');
const Text = z
  .string({ error: 'Please enter the text to translate' })
  .max(TRANSLATOR_MAX_TEXT, `A text to translate can be at most ${TRANSLATOR_MAX_TEXT.toLocaleString('en-US')} characters`);

export const TranslateBody = z.object({ text: Text, source: Source, target: Target });
export type TranslateBody = z.infer<typeof TranslateBody>;

export const TranslateBatchBody = z
  .object({
    texts: z
      .array(Text, { error: 'Please send a list of texts to translate' })
      .min(1, 'Please send at least one text to translate')
      .max(TRANSLATOR_MAX_BATCH, `At most ${TRANSLATOR_MAX_BATCH} texts can be translated at once`),
    source: Source,
    target: Target,
  })
  .refine((b) => b.texts.reduce((n, t) => n + t.length, 0) <= TRANSLATOR_MAX_BATCH_CHARS, {
    message: `The texts together can be at most ${TRANSLATOR_MAX_BATCH_CHARS.toLocaleString('en-US')} characters`,
    path: ['texts'],
  });
export type TranslateBatchBody = z.infer<typeof TranslateBatchBody>;

/**
 * Where a translation came from: the portal's own catalogue of its fixed phrases, the translation
 * memory, the translation server, or nowhere (`none`: the text is the original, see `translated`).
 */
export type TranslationOrigin = 'catalogue' | 'memory' | 'server' | 'same' | 'none';

export interface Translation {
  /** The text in the target language, or the original when `translated` is false. */
  text: string;
  original: string;
  translated: boolean;
  origin: TranslationOrigin;
  /** The language the original was in, when known. */
  source: string | null;
  target: string;
}

/** `data` of both routes: the translations in the order sent, and why any is missing. */
export interface TranslationResult {
  translations: Translation[];
  /** Set when at least one text could not be translated now (`translationUnavailable`). */
  code?: 'translationUnavailable';
}

/** `GET /api/Translator/status`: whether the web shows translate buttons. */
export interface TranslatorStatus {
  available: boolean;
}
