import { createHmac } from 'node:crypto';
import { dataKeys } from './data-keys';

/**
 * The translation memory's key for a text: an HMAC under a key derived from the current
 * data key, so the table never holds the text or a plain hash of it that a guess could be checked
 * against. A key rotation computes it again (infra/key-rotation.ts).
 */
export function translationMemoryKey(text: string, source: string, target: string, key: Buffer = dataKeys().current): string {
  const derived = createHmac('sha256', key).update('portal translation memory v1').digest();
  return createHmac('sha256', derived).update(`${source}\u0000${target}\u0000${text}`).digest('hex');
}
