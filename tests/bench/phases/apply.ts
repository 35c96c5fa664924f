/**
 * Applying: throughput of POST /apply to a first-come opportunity (each starts a lease-up case)
 * with N requests in flight, then applies at a steady rate and the read model's lag: how long after
 * the API took an application its projected row (state version 1 or later) was written. The apply
 * projects the case's first view itself, so each phase also waits for every workflow's first task
 * (as the bare phase waits for its workflows), and the breakdown shows how far the worker trailed.
 */
import type { Client } from '@temporalio/client';
import { sql } from 'kysely';
import { getLeaseUpView } from '../../../workflows/lease-up.messages';
import type { Db } from '../../../infra/db/database';
import type { Api } from '../http';
import { paced, pool, since, summarize, type Summary } from '../stats';

export interface Applicant {
  userId: string;
  householdSize: number;
  authorization: string;
}

export interface ApplyFigures {
  perSecond: number;
  failures: number;
  requestMs: Summary;
}

async function applyOnce(api: Api, opportunityId: string, who: Applicant, failures: string[]): Promise<number> {
  const res = await api.call('POST', '/api/LeaseUpApplication/apply', who.authorization, {
    opportunityId,
    householdSize: who.householdSize,
    householdIncome: 48_000,
    agreeToTerms: true,
  });
  if (res.status !== 201) failures.push(`${res.status} ${res.body?.message ?? ''}`);
  return res.ms;
}

export async function applyThroughput(api: Api, opportunityId: string, applicants: Applicant[], concurrency: number): Promise<ApplyFigures & { errors: string[] }> {
  const failures: string[] = [];
  const ms: number[] = [];
  const start = performance.now();
  await pool(applicants.length, concurrency, async (i) => {
    ms.push(await applyOnce(api, opportunityId, applicants[i]!, failures));
  });
  return { perSecond: applicants.length / (since(start) / 1000), failures: failures.length, requestMs: summarize(ms), errors: [...new Set(failures)].slice(0, 3) };
}

/** Waits until the applicants' applications are all projected (or `waitMs` passed); how many are not. */
export async function waitProjected(db: Db, opportunityId: string, userIds: readonly string[], waitMs = 120_000): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await sql<{ n: string }>`
      select count(*) as n from applications where opportunity_id = ${opportunityId} and applicant_user_id = any(${userIds}::uuid[]) and state_version = 0`.execute(db);
    const unprojected = Number(row.rows[0]?.n ?? 0);
    if (unprojected === 0 || Date.now() > deadline) return unprojected;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Waits until the applicants' workflows have each run their first task (each answers a Query, as in
 * the bare phase), or `waitMs` passed; how many did not.
 */
export async function waitFirstTasks(db: Db, client: Client, opportunityId: string, userIds: readonly string[], waitMs = 300_000): Promise<number> {
  const deadline = Date.now() + waitMs;
  const { rows } = await sql<{ workflow_id: string }>`
    select workflow_id from applications where opportunity_id = ${opportunityId} and applicant_user_id = any(${userIds}::uuid[])`.execute(db);
  let missing = 0;
  await pool(rows.length, 16, async (i) => {
    for (;;) {
      try {
        await client.workflow.getHandle(rows[i]!.workflow_id).query(getLeaseUpView);
        return;
      } catch {
        // Not ready yet (its first task has not run), or a deadline on a loaded machine.
        if (Date.now() > deadline) return void missing++;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  });
  return missing + (userIds.length - rows.length);
}

export interface LagFigures {
  offeredPerSecond: number;
  achievedPerSecond: number;
  lagMs: Summary;
  /** Applications whose row was still unprojected when the bench stopped waiting. */
  unprojected: number;
  failures: number;
  errors: string[];
}

/** Applies at `perSecond` (open loop), then waits up to `waitMs` for every row to be projected. */
export async function readModelLag(api: Api, db: Db, opportunityId: string, applicants: Applicant[], perSecond: number, waitMs = 120_000): Promise<LagFigures> {
  const failures: string[] = [];
  const startedAt = new Date();
  const start = performance.now();
  await paced(applicants.length, perSecond, async (i) => {
    await applyOnce(api, opportunityId, applicants[i]!, failures);
  });
  const achieved = applicants.length / (since(start) / 1000);
  const ids = applicants.map((a) => a.userId);
  const unprojected = await waitProjected(db, opportunityId, ids, waitMs);
  // projected_at is the time of the row's last projection; the first one is what the lag is about,
  // and no action touches these applications during the run, so the last projection is near it.
  const lags = await sql<{ lag_ms: number }>`
    select extract(epoch from (projected_at - applied_at)) * 1000 as lag_ms from applications
    where opportunity_id = ${opportunityId} and applicant_user_id = any(${ids}::uuid[]) and state_version > 0 and applied_at >= ${startedAt}`.execute(db);
  return {
    offeredPerSecond: perSecond,
    achievedPerSecond: achieved,
    lagMs: summarize(lags.rows.map((r) => Number(r.lag_ms))),
    unprojected,
    failures: failures.length,
    errors: [...new Set(failures)].slice(0, 3),
  };
}
