import { createHmac } from 'node:crypto';
import { dataKeys } from '../data-keys';

/** What identifies one person across channels: as written on a form or a profile. */
export interface MatchFacts {
  fullName: string;
  /** ISO date (YYYY-MM-DD). */
  dateOfBirth: string;
  /** The last 4 digits of the SSN, ITIN or alien registration number (empty when none was given). */
  identifierLast4: string;
}

/**
 * The name as a person writes it on paper or online: accents, case, punctuation and the order of
 * the words do not matter ("José  García-López" and "garcia lopez, jose" are the same).
 */
export function normaliseName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  return words.sort().join(' ');
}

/**
 * The keyed hash that finds the same person applying twice to one opportunity (online and on
 * paper, or twice on paper): HMAC-SHA-256 under a key derived from the current data key, so the
 * stored value reveals nothing and cannot be checked against a guessed name and birth date without
 * the key. Keys are computed under the current data key, so after a rotation new keys no longer
 * meet those computed before it.
 */
export function matchKey(facts: MatchFacts, key: Buffer = dataKeys().current): string {
  const derived = createHmac('sha256', key).update('portal applicant match key v1').digest();
  const last4 = facts.identifierLast4.replace(/\D/g, '').slice(-4);
  return createHmac('sha256', derived).update(`${normaliseName(facts.fullName)}\u0000${facts.dateOfBirth.slice(0, 10)}\u0000${last4}`).digest('hex');
}
