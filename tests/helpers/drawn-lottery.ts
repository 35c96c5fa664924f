import { randomBytes, randomUUID } from 'node:crypto';
import { createFieldCipher } from '../../infra/crypto';
import type { Db } from '../../infra/db/database';
import { drawLottery, newSeed, seedHash, type DrawResult, type LotteryEntry, type SetAside } from '../../infra/lottery/draw';

export interface DrawnLottery {
  opportunityId: string;
  seed: string;
  publicValue: string;
  entries: LotteryEntry[];
  result: DrawResult;
}

// The preference groups of domain/lottery.ts (LOTTERY_GROUPS on main).
const GROUPS = ['disability', 'senior', 'community'];

/**
 * A lottery opportunity written straight into the tables, as the lead's draw activity leaves them:
 * `households` applicants 'waitlisted' with the ranks and group positions of `drawLottery`, and the
 * published values on `opportunity_lotteries`. With `drawn: false`, applications wait 'in_lottery'
 * and only the seed hash is published.
 */
export async function insertDrawnLottery(
  db: Db,
  options: { households?: number; units?: number; setAsides?: SetAside[]; drawn?: boolean; published?: boolean; now?: Date } = {},
): Promise<DrawnLottery> {
  const { households = 40, units = 6, setAsides = [{ group: 'disability', share: 0.05 }, { group: 'senior', share: 0.02 }], drawn = true, published = true } = options;
  const now = options.now ?? new Date('2026-11-20T15:00:00Z');
  const tag = randomUUID().slice(0, 8).toUpperCase();
  const org = await db.insertInto('organizations').values({ name: `Lottery org ${tag}`, slug: `lottery-${tag.toLowerCase()}` }).returning('id').executeTakeFirstOrThrow();
  const opportunity = await db
    .insertInto('opportunities')
    .values({
      organization_id: org.id,
      name: `Lottery homes ${tag}`,
      kind: 'rental',
      address: '1 Draw Street',
      amenities: '[]',
      requirements: '[]',
      income_ranges: '[]',
      lottery_end_date: '2026-11-01',
      published,
      selection: 'lottery',
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const users = await db
    .insertInto('users')
    .values(Array.from({ length: households }, (_, i) => ({ username: `lottery-${tag}-${i}`, email: `lottery-${tag}-${i}@example.test`, first_name: `First${i}`, last_name: `Last${i}`, role: 'User' as const, password_hash: 'x' })))
    .returning('id')
    .execute();
  const homes = await db.insertInto('households').values(users.map((u) => ({ head_user_id: u.id }))).returning(['id', 'head_user_id']).execute();

  const entries: LotteryEntry[] = homes.map((_, i) => ({ logNumber: `LU-${tag}-${String(i + 1).padStart(5, '0')}`, groups: GROUPS.filter((_, g) => (i + g) % (g + 3) === 0) }));
  const seed = newSeed();
  const publicValue = '17 04 33 witnesses';
  const result = drawLottery({ seed, publicValue, entries, setAsides, units });
  const ranks = new Map(result.ranked.map((r) => [r.logNumber, r]));

  await db
    .insertInto('opportunity_lotteries')
    .values({
      opportunity_id: opportunity.id,
      workflow_id: `opportunity-${opportunity.id}`,
      organization_id: org.id,
      stage: drawn ? 'drawn' : 'closed',
      deadline: '2026-11-01',
      units,
      set_asides: JSON.stringify(setAsides),
      seed_encrypted: createFieldCipher(randomBytes(32).toString('base64')).encrypt(seed),
      seed_hash: seedHash(seed),
      ...(drawn ? { seed_revealed: seed, public_value: publicValue, algorithm: result.algorithm, list_hash: result.listHash, result_hash: result.resultHash, entries: entries.length, drawn_at: now } : {}),
      state_version: 1,
      state_updated_at: now,
    })
    .execute();

  await db
    .insertInto('applications')
    .values(
      homes.map((h, i) => {
        const entry = entries[i]!;
        const ranked = ranks.get(entry.logNumber)!;
        const id = randomUUID();
        return {
          id,
          workflow_id: `lease-up-${id}`,
          household_id: h.id,
          opportunity_id: opportunity.id,
          organization_id: org.id,
          applicant_user_id: h.head_user_id,
          log_number: entry.logNumber,
          status: drawn ? ('waitlisted' as const) : ('in_lottery' as const),
          current_step: 'submitted' as const,
          pending_tasks: '[]',
          household_size: 2,
          household_income: 40_000,
          applied_at: now,
          state_updated_at: now,
          state_version: 1,
          lottery_groups: JSON.stringify(entry.groups),
          ...(drawn ? { lottery_rank: ranked.rank, lottery_group_positions: JSON.stringify(ranked.groupPositions) } : {}),
        };
      }),
    )
    .execute();
  return { opportunityId: opportunity.id, seed, publicValue, entries, result };
}
