/**
 * What opening day starts from, written in bulk: a lottery open for applications, households whose
 * heads can sign in with a password, managers of the organisation, and a backlog in their inbox.
 * Every account shares one password hash, hashed once: thousands of argon2 hashes would take
 * minutes, and each sign-in still checks the password as it would any other.
 */
import { hash } from '@node-rs/argon2';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { lotteryWorkflowId } from '../../domain';
import { DAY } from '../../domain/time';
import { dataCipher } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { newSeed, seedHash } from '../../infra/lottery/draw';
import { insertHouseholds } from './seed';

/** The password of every opening-day account (bench data only). */
export const OPENING_DAY_PASSWORD = 'Opening-day-bench-1';

export interface Person {
  username: string;
  userId: string;
  householdSize: number;
}

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * A published lottery opportunity whose applications are open: its deadline is tomorrow (the
 * application window ends at the end of the deadline day, so a run across midnight still applies).
 * Its workflow is not started yet: `closeApplications` dates the deadline in the past first.
 */
export async function seedOpenLottery(db: Db, organizationId: string, now: Date): Promise<string> {
  const deadline = isoDay(new Date(now.getTime() + DAY));
  const setAsides = JSON.stringify([{ group: 'disability', share: 0.05 }]);
  const opportunity = await db
    .insertInto('opportunities')
    .values({
      organization_id: organizationId,
      name: 'Opening Day Lottery',
      kind: 'rental',
      address: '2 Bench Plaza, New York, NY 10001',
      amenities: '[]',
      requirements: JSON.stringify([{ amiPercent: 60, layout: '2 bedrooms', monthlyRent: 1500 }]),
      income_ranges: '[]',
      lottery_end_date: deadline,
      published: true,
      published_at: now,
      selection: 'lottery',
      lottery_set_asides: setAsides,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('units')
    .values(Array.from({ length: 50 }, (_, i) => ({ opportunity_id: opportunity.id, unit_number: `D${i + 1}`, bedroom_type: '2 bedrooms', address: '2 Bench Plaza', accessibility: '[]', monthly_rent: 1500, ami_percent: 60 })))
    .execute();
  const seed = newSeed();
  await db
    .insertInto('opportunity_lotteries')
    .values({
      opportunity_id: opportunity.id,
      workflow_id: lotteryWorkflowId(opportunity.id),
      organization_id: organizationId,
      stage: 'accepting',
      deadline,
      units: 50,
      // No mail grace period: the list freezes as applications close, so the bench can draw at once.
      mail_grace_days: 0,
      set_asides: setAsides,
      seed_encrypted: dataCipher().encrypt(seed),
      seed_hash: seedHash(seed),
      state_version: 0,
      state_updated_at: now,
    })
    .execute();
  return opportunity.id;
}

/**
 * Applications close at the end of the deadline day, by the lottery workflow's timer; the bench
 * cannot wait for midnight, so it moves the deadline to yesterday before the workflow starts (the
 * worker's `ensureLotteries` then starts it, and it closes and freezes the list at once). Refuses a
 * lottery whose workflow already runs (a worker restart started it with tomorrow's deadline).
 */
export async function closeApplications(db: Db, opportunityId: string, now: Date): Promise<void> {
  const yesterday = isoDay(new Date(now.getTime() - DAY));
  const moved = await db.updateTable('opportunity_lotteries').set({ deadline: yesterday }).where('opportunity_id', '=', opportunityId).where('state_version', '=', 0).executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new Error('the lottery workflow started before the bench closed applications (did the worker restart?): it closes only at the end of tomorrow');
  await db.updateTable('opportunities').set({ lottery_end_date: yesterday }).where('id', '=', opportunityId).execute();
}

/** `count` applicant households (sizes 1 to 4, profiles complete) whose heads sign in with `OPENING_DAY_PASSWORD`. */
export async function insertPeople(db: Db, count: number, passwordHash: string): Promise<Person[]> {
  const tag = `opening-${randomUUID().slice(0, 8)}`;
  const households = await insertHouseholds(db, tag, 0, count);
  const ids = households.map((h) => h.userId);
  for (let i = 0; i < ids.length; i += 10_000) {
    await sql`update users set password_hash = ${passwordHash} where id = any(${ids.slice(i, i + 10_000)}::uuid[])`.execute(db);
  }
  return households.map((h, i) => ({ username: `${tag}-${i}`, userId: h.userId, householdSize: h.size }));
}

/** `count` managers of the organisation, signing in with `OPENING_DAY_PASSWORD`; their usernames. */
export async function insertManagers(db: Db, organizationId: string, count: number, passwordHash: string): Promise<string[]> {
  const tag = `opening-manager-${randomUUID().slice(0, 8)}`;
  const usernames = Array.from({ length: count }, (_, i) => `${tag}-${i}`);
  await db
    .insertInto('users')
    .values(
      usernames.map((username, i) => ({
        username,
        email: `${username}@example.test`,
        first_name: 'Bench',
        last_name: `Manager ${i}`,
        role: 'Manager',
        password_hash: passwordHash,
        organization_id: organizationId,
        email_verified: true,
      })),
    )
    .execute();
  return usernames;
}

/** The one hash every opening-day account shares (argon2 with the API's own defaults). */
export const openingDayPasswordHash = () => hash(OPENING_DAY_PASSWORD);
