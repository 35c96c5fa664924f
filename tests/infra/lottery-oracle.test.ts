import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { drawLottery as drawOverPostgres } from '../../activities/lottery';
import { createKeyRing } from '../../infra/crypto';
import { dataCipher, useDataKeys } from '../../infra/data-keys';
import { drawLottery, type DrawInput, type DrawResult } from '../../infra/lottery/draw';
import { insertDrawnLottery } from '../helpers/drawn-lottery';
import { createTestDatabase } from '../helpers/stack';

/**
 * An independent oracle for the draw: the rule `hmac-sha256-set-asides-v1` as its text states it
 * (the doc comment of infra/lottery/draw.ts; shared/design/workflows.md: order by HMAC-SHA-256 of the
 * log number keyed by the secret seed and the public value; preference groups and set-aside shares
 * filled in that order), written here from that text with node:crypto alone. Nothing of the
 * product's draw is used to compute the expected result: the product is only what is compared.
 * fast-check generates the lotteries (0 to 4 set-asides over overlapping groups, a group set aside
 * twice, shares that ask for more than the units, many households with the same groups, units
 * beyond the entries) and shrinks any disagreement to a small one, printing its seed.
 */

interface OracleEntry {
  logNumber: string;
  groups: readonly string[];
}
interface OracleInput {
  seed: string;
  publicValue: string;
  entries: readonly OracleEntry[];
  setAsides: readonly { group: string; share: number }[];
  units: number;
}

/** Rule 1: strings compare by UTF-16 code unit (JavaScript's `<`), text is hashed as UTF-8, hex is lowercase. */
const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sha256Hex = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

/** Rule 3's quota, as the rule writes it: ceil(share × units), the product first rounded to 6 decimal places (binary64). */
const quota = (share: number, units: number) => Math.ceil(Math.round(share * units * 1e6) / 1e6);

function oracle(input: OracleInput): DrawResult {
  // Rule 2: each entry's key, HMAC-SHA256 keyed by `seed:publicValue` over the log number; base order by key, then log number.
  const hmacKey = Buffer.from(`${input.seed}:${input.publicValue}`, 'utf8');
  const keyed = input.entries.map((e) => ({ logNumber: e.logNumber, key: createHmac('sha256', hmacKey).update(Buffer.from(e.logNumber, 'utf8')).digest('hex') }));
  const groupsOf = new Map(input.entries.map((e) => [e.logNumber, [...new Set(e.groups)].sort(codeUnitOrder)]));
  const base = keyed.sort((a, b) => codeUnitOrder(a.key, b.key) || codeUnitOrder(a.logNumber, b.logNumber)).map((e) => e.logNumber);

  // Rule 3: set-asides in the order listed; members already reserved count; stop at `units` reserved.
  const reserved = new Set<string>();
  for (const { group, share } of input.setAsides) {
    const members = base.filter((n) => groupsOf.get(n)!.includes(group));
    const need = Math.min(quota(share, input.units), members.length);
    let reservedMembers = members.filter((n) => reserved.has(n)).length;
    // While fewer than `need` members are reserved (and fewer than `units` in all), the group's next
    // unreserved member in base order is reserved.
    for (let next = 0; reservedMembers < need && reserved.size < input.units; next += 1) {
      if (reserved.has(members[next]!)) continue;
      reserved.add(members[next]!);
      reservedMembers += 1;
    }
  }

  // Rule 4: the first `units` ranks are the reserved plus the best unreserved, in base order; then everyone else in base order.
  const chosen = new Set(reserved);
  for (const n of base) {
    if (chosen.size >= Math.min(input.units, base.length)) break;
    chosen.add(n);
  }
  const order = [...base.filter((n) => chosen.has(n)), ...base.filter((n) => !chosen.has(n))];

  // Rule 5: each group's members numbered in rank order.
  const seen = new Map<string, number>();
  const ranked = order.map((logNumber, i) => {
    const groupPositions: Record<string, number> = {};
    for (const g of groupsOf.get(logNumber)!) {
      seen.set(g, (seen.get(g) ?? 0) + 1);
      groupPositions[g] = seen.get(g)!;
    }
    return { logNumber, rank: i + 1, groupPositions };
  });

  // Rule 6: the list hash over `logNumber<TAB>groups` lines by log number; the result hash over the ranked log numbers.
  const lines = [...input.entries].sort((a, b) => codeUnitOrder(a.logNumber, b.logNumber)).map((e) => `${e.logNumber}\t${groupsOf.get(e.logNumber)!.join(',')}`);
  return { algorithm: 'hmac-sha256-set-asides-v1', listHash: sha256Hex(lines.join('\n')), resultHash: sha256Hex(order.join('\n')), ranked };
}

// Group names are tokens; upper and lower case and punctuation make code-unit order differ from a locale's.
const GROUPS = ['mobility', 'hearing_vision', 'Senior', 'senior', 'community.board', 'vet/2'] as const;
const token = fc.stringMatching(/^[A-Za-z0-9._:/-]{1,16}$/);
const logNumber = fc.oneof(fc.integer({ min: 1, max: 999_999 }).map((n) => `LU-${String(n).padStart(6, '0')}`), token);
/** A household's groups: any of the pool, a name sometimes listed twice. */
const groups = fc.array(fc.constantFrom(...GROUPS), { maxLength: 4 });
const share = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: 0, max: 100 }).map((p) => p / 100),
  fc.constantFrom(0, 1, 0.07, 0.05, 1 / 3, 0.5),
);
const setAsides = fc.array(fc.record({ group: fc.constantFrom(...GROUPS), share }), { maxLength: 4 });
/** Seeds as the product makes them, and any text (long keys are hashed first by HMAC itself; non-ASCII text is UTF-8). */
const seed = fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')), fc.string({ minLength: 1, maxLength: 100, unit: 'grapheme' }));
const publicValue = fc.string({ minLength: 1, maxLength: 80, unit: 'grapheme' });

/** Small lotteries: 1 to `max` entries, sometimes all with the same groups, and 0 to entries + 5 units. */
const lottery = (max: number): fc.Arbitrary<DrawInput> =>
  fc
    .record({
      seed,
      publicValue,
      entries: fc.uniqueArray(fc.record({ logNumber, groups }), { minLength: 1, maxLength: max, selector: (e) => e.logNumber }),
      sameGroups: fc.option(groups, { freq: 4 }),
      setAsides,
      extraUnits: fc.integer({ min: 0, max: 5 }),
      unitShare: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ entries, sameGroups, extraUnits, unitShare, ...rest }) => ({
      ...rest,
      entries: sameGroups ? entries.map((e) => ({ ...e, groups: sameGroups })) : entries,
      units: Math.floor(unitShare * entries.length) + (unitShare > 0.9 ? extraUnits : 0),
    }));

/**
 * Where the product's answer first differs from the oracle's, or null: a deep comparison (and a
 * diff) of 100,000 entries takes minutes, so the first differing rank is reported instead.
 */
function firstDifference(product: DrawResult, expected: DrawResult): string | null {
  const line = (e: DrawResult['ranked'][number] | undefined) => (e ? JSON.stringify([e.logNumber, e.rank, Object.entries(e.groupPositions).sort()]) : 'nothing');
  for (const key of ['algorithm', 'listHash', 'resultHash'] as const) if (product[key] !== expected[key]) return `${key}: ${product[key]} instead of ${expected[key]}`;
  for (let i = 0; i < Math.max(product.ranked.length, expected.ranked.length); i++) {
    const [a, b] = [line(product.ranked[i]), line(expected.ranked[i])];
    if (a !== b) return `rank ${i + 1}: ${a} instead of ${b}`;
  }
  return null;
}

describe('the draw against an independent oracle written from its rule text', () => {
  it('agrees with the oracle on generated lotteries of 1 to 60 entries', () => {
    fc.assert(
      fc.property(lottery(60), (input) => {
        expect(drawLottery(input)).toEqual(oracle(input));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees where the set-asides decide: shares asking for more than the units, groups overlapping', () => {
    // Every household in at least one group, units few: the reservations fill the units.
    const crowded = fc
      .record({ seed, publicValue, entries: fc.uniqueArray(fc.record({ logNumber, groups: fc.array(fc.constantFrom(...GROUPS), { minLength: 1, maxLength: 3 }) }), { minLength: 5, maxLength: 60, selector: (e) => e.logNumber }), setAsides: fc.array(fc.record({ group: fc.constantFrom(...GROUPS), share: fc.double({ min: 0.3, max: 1, noNaN: true }) }), { minLength: 2, maxLength: 4 }), units: fc.integer({ min: 1, max: 8 }) })
      .map((input) => input as DrawInput);
    fc.assert(
      fc.property(crowded, (input) => {
        const expected = oracle(input);
        expect(drawLottery(input)).toEqual(expected);
        // Never more reserved than the units: the first `units` ranks are all the oracle chose.
        expect(expected.ranked.length).toBe(input.entries.length);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees on one lottery of 100,000 entries with four overlapping set-asides', () => {
    fc.assert(
      fc.property(fc.integer(), seed, publicValue, (salt, s, pv) => {
        const random = mulberry32(salt);
        const entries = Array.from({ length: 100_000 }, (_, i) => ({
          logNumber: `LU-${String(i + 1).padStart(6, '0')}`,
          groups: GROUPS.filter(() => random() < 0.15),
        }));
        const input: DrawInput = {
          seed: s,
          publicValue: pv,
          entries,
          units: 1_000,
          setAsides: [{ group: 'mobility', share: 0.05 }, { group: 'Senior', share: 0.4 }, { group: 'mobility', share: 0.1 }, { group: 'community.board', share: 0.6 }],
        };
        expect(firstDifference(drawLottery(input), oracle(input))).toBeNull();
      }),
      { numRuns: 1 },
    );
  });

  it('the draw activity writes the oracle\'s ranks and group positions, and publishes its hashes, from the values it reveals', async () => {
    useDataKeys(createKeyRing(randomBytes(32).toString('base64')));
    const { db } = await createTestDatabase();
    try {
      const setAsides = [{ group: 'disability', share: 0.3 }, { group: 'senior', share: 0.25 }, { group: 'disability', share: 0.1 }, { group: 'community', share: 0.6 }];
      const lottery = await insertDrawnLottery(db, { drawn: false, households: 300, units: 24, setAsides });
      // Sealed with this test's data key, as the lottery's workflow stores it.
      await db.updateTable('opportunity_lotteries').set({ seed_encrypted: dataCipher().encrypt(lottery.seed) }).where('opportunity_id', '=', lottery.opportunityId).execute();
      const summary = await drawOverPostgres(db, { opportunityId: lottery.opportunityId, publicValue: 'witnessed 07 19 23 41' });

      // What anyone can read once it is drawn: the revealed seed, the public value, the list and the result.
      const published = await db.selectFrom('opportunity_lotteries').selectAll().where('opportunity_id', '=', lottery.opportunityId).executeTakeFirstOrThrow();
      const rows = await db.selectFrom('applications').select(['log_number', 'lottery_groups', 'lottery_rank', 'lottery_group_positions', 'status']).where('opportunity_id', '=', lottery.opportunityId).execute();
      expect(sha256Hex(published.seed_revealed!)).toBe(published.seed_hash);
      const expected = oracle({
        seed: published.seed_revealed!,
        publicValue: published.public_value!,
        entries: rows.map((r) => ({ logNumber: r.log_number!, groups: r.lottery_groups as string[] })),
        setAsides: published.set_asides as { group: string; share: number }[],
        units: published.units,
      });
      expect({ algorithm: published.algorithm, listHash: published.list_hash, resultHash: published.result_hash, entries: published.entries }).toEqual({
        algorithm: expected.algorithm,
        listHash: expected.listHash,
        resultHash: expected.resultHash,
        entries: 300,
      });
      expect(summary).toMatchObject({ listHash: expected.listHash, resultHash: expected.resultHash });
      const stored = rows.map((r) => ({ logNumber: r.log_number!, rank: r.lottery_rank!, groupPositions: r.lottery_group_positions })).sort((a, b) => a.rank - b.rank);
      expect(stored).toEqual(expected.ranked);
      expect(rows.every((r) => r.status === 'waitlisted')).toBe(true);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});

/** A small seeded generator (mulberry32), so the large case replays from fast-check's seed alone. */
function mulberry32(seedValue: number): () => number {
  let s = seedValue >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
