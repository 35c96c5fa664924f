import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LOTTERY_ALGORITHM, drawLottery, listHash, newSeed, quotaOf, resultHash, seedHash, type DrawInput, type LotteryEntry } from '../../infra/lottery/draw';

/**
 * "Property tests of the draw": the result is a permutation of the frozen list; the same
 * seeds and list give the same order; set-aside shares are honoured; changing either seed changes
 * the order. fast-check shrinks any failure to a small list and prints its seed to replay it.
 */
const GROUPS = ['mobility', 'hearing_vision', 'community_board', 'municipal'] as const;
const hex = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const publicValue = fc.stringMatching(/^[0-9A-Za-z -]{1,20}$/);
const entries = (min: number, max: number) =>
  fc.uniqueArray(
    fc.record({ logNumber: fc.integer({ min: 1, max: 999_999 }).map((n) => `LU-${String(n).padStart(6, '0')}`), groups: fc.subarray([...GROUPS]) }),
    { minLength: min, maxLength: max, selector: (e) => e.logNumber },
  );
const setAsides = fc.uniqueArray(fc.record({ group: fc.constantFrom(...GROUPS), share: fc.double({ min: 0, max: 0.5, noNaN: true }) }), { maxLength: 4, selector: (s) => s.group });
const drawInput = (min = 0, max = 80): fc.Arbitrary<DrawInput> =>
  fc.record({ seed: hex, publicValue, entries: entries(min, max), setAsides, units: fc.integer({ min: 0, max: 40 }) });

const order = (input: DrawInput) => drawLottery(input).ranked.map((r) => r.logNumber);

describe('the lottery draw', () => {
  it('ranks are a permutation of the frozen list, numbered 1..n', () => {
    fc.assert(
      fc.property(drawInput(), (input) => {
        const { ranked, algorithm } = drawLottery(input);
        expect(algorithm).toBe(LOTTERY_ALGORITHM);
        expect(ranked.map((r) => r.logNumber).sort()).toEqual(input.entries.map((e) => e.logNumber).sort());
        expect(ranked.map((r) => r.rank)).toEqual(ranked.map((_, i) => i + 1));
      }),
    );
  });

  it('the same seeds and list give the same order and hashes, whatever order the list is read in', () => {
    fc.assert(
      fc.property(drawInput(), fc.integer(), (input, shuffleSeed) => {
        const shuffled = { ...input, entries: shuffle(input.entries, shuffleSeed).map((e) => ({ ...e, groups: [...e.groups].reverse() })) };
        expect(drawLottery(shuffled)).toEqual(drawLottery(input));
        expect(listHash(shuffled.entries)).toBe(listHash(input.entries));
      }),
    );
  });

  it('the list hash changes when an entry, or its groups, change', () => {
    fc.assert(
      fc.property(entries(1, 40), (list) => {
        const [first, ...rest] = list;
        expect(listHash(rest)).not.toBe(listHash(list));
        const regrouped = { ...first!, groups: first!.groups.length > 0 ? first!.groups.slice(1) : ['mobility'] };
        expect(listHash([regrouped, ...rest])).not.toBe(listHash(list));
      }),
    );
  });

  it('changing either seed changes the order (lists of 20 or more)', () => {
    fc.assert(
      fc.property(drawInput(20, 80), hex, publicValue, (input, otherSeed, otherPublic) => {
        fc.pre(otherSeed !== input.seed && otherPublic !== input.publicValue);
        const base = drawLottery(input);
        for (const changed of [{ ...input, seed: otherSeed }, { ...input, publicValue: otherPublic }]) {
          const other = drawLottery(changed);
          expect(other.ranked.map((r) => r.logNumber)).not.toEqual(base.ranked.map((r) => r.logNumber));
          expect(other.resultHash).not.toBe(base.resultHash);
          expect(other.listHash).toBe(base.listHash);
        }
      }),
    );
  });

  it('honours each set-aside: the first `units` ranks hold min(quota, group size) of its members', () => {
    fc.assert(
      fc.property(drawInput(), (input) => {
        const top = new Set(order(input).slice(0, input.units));
        const groupsOf = new Map(input.entries.map((e) => [e.logNumber, e.groups]));
        // Reservations stop at `units`, earlier set-asides first: walk them as the rule does.
        let reservedSoFar = 0;
        for (const { group, share } of input.setAsides) {
          const members = input.entries.filter((e) => e.groups.includes(group)).length;
          const need = Math.min(quotaOf(share, input.units), members);
          const held = [...top].filter((n) => groupsOf.get(n)!.includes(group)).length;
          reservedSoFar += need;
          if (reservedSoFar <= input.units) expect(held, `${group} in the first ${input.units}`).toBeGreaterThanOrEqual(need);
        }
      }),
    );
  });

  it('without set-asides the order is by keyed hash; set-asides only move group members up into the first `units`', () => {
    fc.assert(
      fc.property(drawInput(), (input) => {
        const plain = order({ ...input, setAsides: [] });
        const withAsides = order(input);
        const top = withAsides.slice(0, input.units);
        // Whoever is in the first `units` without being the best keyed belongs to a set-aside group.
        const plainTop = new Set(plain.slice(0, input.units));
        const asideGroups = new Set(input.setAsides.map((s) => s.group));
        const groupsOf = new Map(input.entries.map((e) => [e.logNumber, e.groups]));
        for (const n of top) if (!plainTop.has(n)) expect(groupsOf.get(n)!.some((g) => asideGroups.has(g))).toBe(true);
        // Inside each block (the first `units`, then the rest) the key order is kept.
        const keyRank = new Map(plain.map((n, i) => [n, i]));
        for (const block of [top, withAsides.slice(input.units)]) {
          const positions = block.map((n) => keyRank.get(n)!);
          expect(positions).toEqual([...positions].sort((a, b) => a - b));
        }
      }),
    );
  });

  it('group positions count each group\'s members in rank order', () => {
    fc.assert(
      fc.property(drawInput(), (input) => {
        const { ranked } = drawLottery(input);
        const groupsOf = new Map(input.entries.map((e) => [e.logNumber, [...new Set(e.groups)].sort()]));
        for (const group of GROUPS) {
          const members = ranked.filter((r) => groupsOf.get(r.logNumber)!.includes(group));
          expect(members.map((r) => r.groupPositions[group])).toEqual(members.map((_, i) => i + 1));
        }
        for (const r of ranked) expect(Object.keys(r.groupPositions).sort()).toEqual(groupsOf.get(r.logNumber));
      }),
    );
  });

  it('publishes hashes anyone can recompute', () => {
    const seed = newSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(seedHash(seed)).toMatch(/^[0-9a-f]{64}$/);
    expect(seedHash(seed)).not.toBe(seedHash(newSeed()));
    const input: DrawInput = { seed, publicValue: '7 31 12', entries: [{ logNumber: 'LU-000001', groups: [] }, { logNumber: 'LU-000002', groups: ['mobility'] }], setAsides: [], units: 1 };
    const result = drawLottery(input);
    expect(result.resultHash).toBe(resultHash(result.ranked.map((r) => r.logNumber)));
    // The published rule, recomputed here with nothing but the standard primitives.
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    const key = (n: string) => createHmac('sha256', `${seed}:7 31 12`).update(n).digest('hex');
    expect(seedHash(seed)).toBe(sha(seed));
    expect(result.listHash).toBe(sha('LU-000001\t\nLU-000002\tmobility'));
    const byKey = ['LU-000001', 'LU-000002'].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(result.ranked.map((r) => r.logNumber)).toEqual(byKey);
    expect(result.resultHash).toBe(sha(byKey.join('\n')));
    // With one unit and a 100 % set-aside for mobility, LU-000002 takes rank 1 whatever the keys.
    expect(drawLottery({ ...input, setAsides: [{ group: 'mobility', share: 1 }] }).ranked.map((r) => r.logNumber)).toEqual(['LU-000002', 'LU-000001']);
  });

  it('keys are the published HMAC whatever the key length (a key over 64 bytes is hashed first, as HMAC does)', () => {
    const logNumbers = Array.from({ length: 30 }, (_, i) => `LU-${String(i + 1).padStart(6, '0')}`);
    for (const [seed, pv] of [['s', '1'], ['a'.repeat(31), 'b'.repeat(32)], ['a'.repeat(31), 'b'.repeat(33)], [newSeed(), '7 31 12']] as const) {
      const key = (n: string) => createHmac('sha256', `${seed}:${pv}`).update(n).digest('hex');
      const byKey = [...logNumbers].sort((a, b) => (key(a) < key(b) ? -1 : 1));
      const result = drawLottery({ seed, publicValue: pv, entries: logNumbers.map((logNumber) => ({ logNumber, groups: [] })), setAsides: [], units: 5 });
      expect(result.ranked.map((r) => r.logNumber), `key of ${seed.length + 1 + pv.length} bytes`).toEqual(byKey);
    }
  });

  it('quota rounding: 7 % of 100 units is 7, 5 % of 30 is 2', () => {
    expect(quotaOf(0.07, 100)).toBe(7);
    expect(quotaOf(0.05, 30)).toBe(2);
    expect(quotaOf(0, 30)).toBe(0);
    expect(quotaOf(1, 30)).toBe(30);
  });

  it('refuses duplicate log numbers, untokenised names and shares outside 0..1', () => {
    const e: LotteryEntry = { logNumber: 'LU-000001', groups: [] };
    const input: DrawInput = { seed: newSeed(), publicValue: '42', entries: [e], setAsides: [], units: 1 };
    expect(() => drawLottery({ ...input, entries: [e, e] })).toThrow(/appears twice/);
    expect(() => drawLottery({ ...input, entries: [{ logNumber: 'LU 1\n', groups: [] }] })).toThrow(/single token/);
    expect(() => drawLottery({ ...input, setAsides: [{ group: 'mobility', share: 1.5 }] })).toThrow(/between 0 and 1/);
    expect(() => drawLottery({ ...input, units: -1 })).toThrow(/units/);
    expect(() => drawLottery({ ...input, publicValue: '' })).toThrow(/public value/);
  });
});

/** Deterministic Fisher-Yates (mulberry32), so a failing case replays from fast-check's seed alone. */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
