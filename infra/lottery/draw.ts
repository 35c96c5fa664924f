import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The lottery draw: a pure function of two seeds and the frozen list, so anyone
 * holding the published values can recompute the order. No I/O, no clock, no randomness except in
 * `newSeed`.
 *
 * The rule, `hmac-sha256-set-asides-v1`, precisely enough to reimplement:
 *
 *  1. Strings are compared by UTF-16 code unit (JavaScript `<`; for the ASCII log numbers and group
 *     names used here that is byte order). Text is hashed as UTF-8. Hex is lowercase.
 *  2. Each entry's key = HMAC-SHA256 (RFC 2104) with key the UTF-8 bytes of `seed + ':' + publicValue`
 *     over the UTF-8 bytes of `logNumber`, as 64 hex digits. The base order is by key ascending (ties,
 *     which need a SHA-256 collision, by log number).
 *  3. Set-asides are applied in the order the opportunity lists them (a group may be listed more
 *     than once). An entry is a member of a group when its groups name it (once or more). For each:
 *     quota = ceil(share × units), with the product first rounded to 6 decimal places so binary
 *     floating point cannot turn 7 % of 100 into 8; exactly, the expression
 *     `Math.ceil(Math.round(share * units * 1e6) / 1e6)` evaluated in IEEE-754 binary64 (JavaScript
 *     numbers; Math.round takes halves up), which is what decides for a share with more digits;
 *     need = min(quota, number of members of the group). Members of the group already reserved by an
 *     earlier set-aside count towards it; while fewer than `need` members are reserved, reserve the
 *     group's next member in base order that is not yet reserved. Reservations stop when `units`
 *     entries are reserved (earlier set-asides win when the shares ask for more than the units).
 *  4. The first `units` ranks (or all entries, if fewer) are the reserved entries plus the unreserved
 *     entries in base order until `units` are chosen; these chosen entries take ranks 1.. in base
 *     order among themselves. Everyone else follows in base order.
 *  5. groupPositions[g] = the entry's 1-based position among the members of g in final rank order.
 *  6. listHash = SHA-256 of the lines `logNumber + '\t' + groups` (groups deduplicated, sorted, joined
 *     by ','), one per entry sorted by log number, joined by '\n'. It does not depend on input order.
 *     resultHash = SHA-256 of the log numbers in rank order joined by '\n'.
 */
export const LOTTERY_ALGORITHM = 'hmac-sha256-set-asides-v1';

export interface LotteryEntry {
  logNumber: string;
  groups: readonly string[];
}
/** A share of the units (0..1) reserved for households in a preference group. */
export interface SetAside {
  group: string;
  share: number;
}
export interface DrawInput {
  seed: string;
  publicValue: string;
  entries: readonly LotteryEntry[];
  setAsides: readonly SetAside[];
  units: number;
}
export interface RankedEntry {
  logNumber: string;
  rank: number;
  groupPositions: Record<string, number>;
}
export interface DrawResult {
  algorithm: string;
  listHash: string;
  resultHash: string;
  ranked: RankedEntry[];
}

/** Log numbers and group names are single tokens, so the hashed lines cannot be ambiguous. */
const TOKEN = /^[A-Za-z0-9._:/-]{1,64}$/;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A fresh secret seed: 32 random bytes as hex. */
export function newSeed(): string {
  return randomBytes(32).toString('hex');
}

/** The commitment published when applications open: SHA-256 (hex) of the seed's text. */
export function seedHash(seed: string): string {
  return sha256(seed);
}

function canonicalGroups(groups: readonly string[]): string[] {
  return groups.length < 2 ? [...groups] : [...new Set(groups)].sort(byCodeUnit);
}

function checkEntries(entries: readonly LotteryEntry[]): void {
  const seen = new Set<string>();
  for (const { logNumber, groups } of entries) {
    if (!TOKEN.test(logNumber)) throw new RangeError(`log number ${JSON.stringify(logNumber)} is not a single token`);
    if (seen.has(logNumber)) throw new RangeError(`log number ${logNumber} appears twice`);
    seen.add(logNumber);
    for (const g of groups) if (!TOKEN.test(g)) throw new RangeError(`group ${JSON.stringify(g)} of ${logNumber} is not a single token`);
  }
}

/** Hash of the frozen list: independent of the entries' order and of the order of each entry's groups. */
export function listHash(entries: readonly LotteryEntry[]): string {
  checkEntries(entries);
  return canonicalListHash(entries.map((e) => ({ logNumber: e.logNumber, groups: canonicalGroups(e.groups) })));
}

function canonicalListHash(entries: readonly { logNumber: string; groups: string[] }[]): string {
  const lines = entries.map((e) => `${e.logNumber}\t${e.groups.join(',')}`);
  // Log numbers are unique and contain no tab, so sorting the lines sorts by log number; the
  // default sort compares UTF-16 code units, as the rule says.
  return sha256(lines.sort().join('\n'));
}

function checkInput({ seed, publicValue, setAsides, units }: DrawInput): void {
  if (seed.length === 0) throw new RangeError('the seed is empty');
  if (publicValue.length === 0) throw new RangeError('the public value is empty');
  if (!Number.isSafeInteger(units) || units < 0) throw new RangeError('units must be a whole number ≥ 0');
  for (const { group, share } of setAsides) {
    if (!TOKEN.test(group)) throw new RangeError(`set-aside group ${JSON.stringify(group)} is not a single token`);
    if (!(share >= 0 && share <= 1)) throw new RangeError(`set-aside share of ${group} must be between 0 and 1`);
  }
}

interface Keyed {
  logNumber: string;
  groups: string[];
  key: string;
}

/** Step 3's quota: ceil(share × units) on the product rounded to 6 decimals (0.07 × 100 is 7.000000000000001 in binary). */
export function quotaOf(share: number, units: number): number {
  return Math.ceil(Math.round(share * units * 1e6) / 1e6);
}

/**
 * The HMAC key as HMAC itself uses it (RFC 2104): a key longer than SHA-256's 64-byte block is
 * replaced by its SHA-256. Done once here rather than once per entry; the keys, and so the order,
 * are the same as with the text key (the tests recompute them with the text key).
 */
function hmacKeyOf(text: string): Buffer {
  const key = Buffer.from(text, 'utf8');
  return key.length > 64 ? createHash('sha256').update(key).digest() : key;
}

export function drawLottery(input: DrawInput): DrawResult {
  checkInput(input);
  checkEntries(input.entries);
  const hmacKey = hmacKeyOf(`${input.seed}:${input.publicValue}`);
  const base: Keyed[] = input.entries.map((e) => ({
    logNumber: e.logNumber,
    groups: canonicalGroups(e.groups),
    key: createHmac('sha256', hmacKey).update(e.logNumber, 'utf8').digest('hex'),
  }));
  const list = canonicalListHash(base);
  base.sort((a, b) => byCodeUnit(a.key, b.key) || byCodeUnit(a.logNumber, b.logNumber));

  // Step 3: reservations, by index into the base order.
  const units = input.units;
  const reserved = new Set<number>();
  for (const { group, share } of input.setAsides) {
    if (reserved.size >= units) break;
    const members: number[] = [];
    base.forEach((e, i) => e.groups.includes(group) && members.push(i));
    const need = Math.min(quotaOf(share, units), members.length);
    let have = members.filter((i) => reserved.has(i)).length;
    for (const i of members) {
      if (have >= need || reserved.size >= units) break;
      if (reserved.has(i)) continue;
      reserved.add(i);
      have += 1;
    }
  }

  // Step 4: the chosen block (reserved plus the best unreserved) in base order, then the rest.
  const chosen = new Set(reserved);
  for (let i = 0; i < base.length && chosen.size < units; i += 1) chosen.add(i);
  const order = [...base.keys()].filter((i) => chosen.has(i)).concat([...base.keys()].filter((i) => !chosen.has(i)));

  // Step 5.
  const counters = new Map<string, number>();
  const ranked: RankedEntry[] = order.map((i, at) => {
    const e = base[i]!;
    const groupPositions: Record<string, number> = {};
    for (const g of e.groups) {
      const next = (counters.get(g) ?? 0) + 1;
      counters.set(g, next);
      groupPositions[g] = next;
    }
    return { logNumber: e.logNumber, rank: at + 1, groupPositions };
  });

  return { algorithm: LOTTERY_ALGORITHM, listHash: list, resultHash: resultHash(ranked.map((r) => r.logNumber)), ranked };
}

/** SHA-256 of log numbers in rank order, one per line: what the draw publishes, and what stored ranks must reproduce. */
export function resultHash(logNumbersInRankOrder: readonly string[]): string {
  return sha256(logNumbersInRankOrder.join('\n'));
}
