import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * Translation memory: one row per text and language pair, so the same text is never
 * sent to the translation server twice. The text is people's own words (a reason, a message), so
 * the key is an HMAC of it under a key derived from the data key (never the text itself) and the
 * translation is sealed with the data key.
 */
export interface TranslationMemoryTable {
  /** HMAC-SHA256 (hex) of `source \0 target \0 text`, see api/services/translator.ts. */
  text_hash: string;
  source: string;
  target: string;
  /** The original text, sealed: a key rotation re-hashes it under the new key. */
  original_encrypted: string;
  /** The translation, sealed (`v2:<key id>:...`). */
  translated_encrypted: string;
  /** The language the server detected (source `auto`). */
  detected: string | null;
  created_at: Timestamp;
  used_at: Timestamp;
}

/** The intake assistant's conversation: one per user; the state is sealed JSON. */
export interface IntakeConversationTable {
  user_id: string;
  household_id: string;
  state: ColumnType<unknown, string, string>;
  paused: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: Timestamp;
}

export interface TranslationTables {
  translation_memory: TranslationMemoryTable;
  intake_conversations: IntakeConversationTable;
}
