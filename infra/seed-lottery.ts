import { formatLogNumber, lotteryWorkflowId } from '../domain';
import { dataCipher, hasDataKeys } from './data-keys';
import type { Db } from './db/database';
import { declaredIncomeColumns } from './db/repositories/declared-income';
import { newSeed, seedHash } from './lottery/draw';
import { leaseUpApplicationId, leaseUpWorkflowId } from './temporal/ids';
import { DAY } from '../domain/time';

export const DEMO_LOTTERY_APPLICANTS = 300;

/** The demo lottery's mail grace period: its deadline is this many days and one more before the seed, so the grace period is over too. */
const DEMO_GRACE_DAYS = 3;

/**
 * The demo lottery: "Mott Haven Lottery", two units, applications closed and the mail grace
 * period over, with 300 households in it (the demo applicant among them), set-asides for disability
 * and seniors, ready for a manager to draw and invite. Its workflow is started by the worker
 * (`ensureLotteries`); its first work freezes the list and publishes its hash.
 */
export async function seedDemoLottery(db: Db, organizationId: string, applicantUserId: string, now: Date): Promise<void> {
  const deadline = new Date(now.getTime() - (DEMO_GRACE_DAYS + 2) * DAY).toISOString().slice(0, 10);
  const { id: opportunityId } = await db
    .insertInto('opportunities')
    .values({
      organization_id: organizationId,
      name: 'Mott Haven Lottery',
      kind: 'rental',
      address: '455 E 148th St, Bronx, NY 10455',
      description: 'Two affordable apartments allotted by lottery. Applications are closed; the draw is next.',
      amenities: JSON.stringify(['Elevator', 'Laundry room']),
      requirements: JSON.stringify([{ amiPercent: 50, layout: '1 bedroom', monthlyRent: 980 }]),
      income_ranges: JSON.stringify([{ householdSize: 2, min: 30_000, max: 62_150 }]),
      lottery_end_date: deadline,
      mail_grace_days: DEMO_GRACE_DAYS,
      published: true,
      published_at: new Date(now.getTime() - 30 * DAY),
      selection: 'lottery',
      lottery_set_asides: JSON.stringify([
        { group: 'disability', share: 0.5 },
        { group: 'senior', share: 0.5 },
      ]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('units')
    .values(['2A', '3C'].map((n) => ({ opportunity_id: opportunityId, unit_number: n, bedroom_type: '1 bedroom', address: '455 E 148th St, Bronx, NY 10455', accessibility: '[]', monthly_rent: 980, ami_percent: 50 })))
    .execute();
  const seed = newSeed();
  await db
    .insertInto('opportunity_lotteries')
    .values({
      opportunity_id: opportunityId,
      workflow_id: lotteryWorkflowId(opportunityId),
      organization_id: organizationId,
      stage: 'accepting',
      deadline,
      units: 2,
      mail_grace_days: DEMO_GRACE_DAYS,
      set_asides: JSON.stringify([
        { group: 'disability', share: 0.5 },
        { group: 'senior', share: 0.5 },
      ]),
      // Without data keys (a seed outside `npm start`) the seed stays as written; the draw needs keys anyway.
      seed_encrypted: hasDataKeys() ? dataCipher().encrypt(seed) : seed,
      seed_hash: seedHash(seed),
      state_version: 0,
      state_updated_at: now,
    })
    .execute();

  const applicant = await db.selectFrom('households').select(['id', 'household_size']).where('head_user_id', '=', applicantUserId).executeTakeFirstOrThrow();
  const households: { userId: string; householdId: string; size: number; groups: string[] }[] = [
    { userId: applicantUserId, householdId: applicant.id, size: applicant.household_size, groups: [] },
  ];
  const users = await db
    .insertInto('users')
    .values(
      Array.from({ length: DEMO_LOTTERY_APPLICANTS - 1 }, (_, i) => ({
        username: `lottery-${i + 1}`,
        email: `lottery-${i + 1}@example.org`,
        first_name: 'Lottery',
        last_name: `Applicant ${i + 1}`,
        role: 'User' as const,
        // No password: these households exist to fill the list, nobody signs in as them.
        password_hash: '!',
        email_verified: true,
      })),
    )
    .returning('id')
    .execute();
  const heads = await db
    .insertInto('households')
    .values(users.map((u, i) => ({ head_user_id: u.id, household_size: 1 + (i % 4), profile_completion: 100 })))
    .returning(['id', 'head_user_id', 'household_size'])
    .execute();
  heads.forEach((h, i) => households.push({ userId: h.head_user_id, householdId: h.id, size: h.household_size, groups: [...(i % 9 === 0 ? ['disability'] : []), ...(i % 5 === 0 ? ['senior'] : [])] }));
  const ids = households.map((h) => leaseUpApplicationId(opportunityId, h.householdId));
  const logs = await db.insertInto('application_log_numbers').values(ids.map((id) => ({ application_id: id }))).returning(['application_id', 'number']).execute();
  const logOf = new Map(logs.map((l) => [l.application_id, formatLogNumber(l.number)]));
  await db
    .insertInto('applications')
    .values(
      households.map((h, i) => ({
        id: ids[i]!,
        workflow_id: leaseUpWorkflowId(ids[i]!),
        household_id: h.householdId,
        opportunity_id: opportunityId,
        organization_id: organizationId,
        applicant_user_id: h.userId,
        log_number: logOf.get(ids[i]!)!,
        status: 'in_lottery' as const,
        current_step: 'submitted' as const,
        pending_tasks: '[]',
        household_size: h.size,
        ...(hasDataKeys() ? declaredIncomeColumns(32_000 + (i % 40) * 500) : { household_income: 32_000 + (i % 40) * 500 }),
        lottery_groups: JSON.stringify(h.groups),
        applied_at: new Date(now.getTime() - (2 + (i % 20)) * DAY),
        state_updated_at: now,
        state_version: 0,
      })),
    )
    .execute();
}
