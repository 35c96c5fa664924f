import { createHmac, randomInt } from 'node:crypto';
import { CLAIM_CODE_ALPHABET, CLAIM_CODE_DAYS } from '../../domain';
import { DAY } from '../../domain/time';
import { dataKeys } from '../data-keys';

/** A fresh claim code (8 characters, 40 bits): printed in the household's first letter, never stored. */
export function newClaimCode(): string {
  return Array.from({ length: 8 }, () => CLAIM_CODE_ALPHABET[randomInt(CLAIM_CODE_ALPHABET.length)]).join('');
}

export const formatClaimCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * What is stored to recognise a claim code: an HMAC under a key derived from the data key, so the
 * table cannot be searched for codes without the key (40 bits would not resist a plain hash).
 */
export function claimCodeHash(code: string, key: Buffer = dataKeys().current): string {
  const derived = createHmac('sha256', key).update('portal paper application claim code v1').digest();
  return createHmac('sha256', derived).update(code).digest('hex');
}

/**
 * The hashes a typed code may be stored under: one per key of the ring, so a code issued before a
 * data-key rotation still claims (the stored hash is not rewritten by the rotation).
 */
export const claimCodeHashes = (code: string): string[] => [...new Set([dataKeys().current, ...dataKeys().byId.values()])].map((key) => claimCodeHash(code, key));

/** When a code issued now stops working. */
export const claimCodeExpiry = (now = new Date()) => new Date(now.getTime() + CLAIM_CODE_DAYS * DAY);
