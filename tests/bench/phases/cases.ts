/**
 * One case's costs against the bare client's: an applicant's action over HTTP (UpdateInfo, one
 * Update of the case's workflow) and the application's detail (one Query), each timed one at a
 * time; the history length of an invited case; the opportunity workflow's history length.
 */
import type { Client } from '@temporalio/client';
import { lotteryWorkflowId } from '../../../domain';
import type { Db } from '../../../infra/db/database';
import { leaseUpWorkflowId } from '../../../infra/temporal/ids';
import { mintSessions, type Api } from '../http';

export interface CaseFigures {
  actionMs: number[];
  queryMs: number[];
  failures: string[];
  historyEvents: number;
  actionsEach: number;
  lotteryHistory: number;
}

export async function measureCases(api: Api, db: Db, temporal: Client, jwtSecret: string, lotteryId: string, samples: number): Promise<CaseFigures> {
  const cases = await db
    .selectFrom('applications')
    .select(['id', 'applicant_user_id', 'household_size'])
    .where('opportunity_id', '=', lotteryId)
    .where('invited_at', 'is not', null)
    .where('state_version', '>', 0)
    .orderBy('lottery_rank')
    .limit(50)
    .execute();
  if (cases.length === 0) throw new Error('no invited case to act on');
  const tokens = await mintSessions(db, jwtSecret, cases.map((c) => c.applicant_user_id));
  const actionMs: number[] = [];
  const queryMs: number[] = [];
  const failures: string[] = [];
  for (let i = 0; i < samples; i++) {
    const c = cases[i % cases.length]!;
    const auth = tokens.get(c.applicant_user_id)!;
    const act = await api.call('POST', `/api/LeaseUpApplication/update-info/${c.id}`, auth, { householdSize: c.household_size, householdIncome: 48_000 + i });
    if (act.status === 200) actionMs.push(act.ms);
    else failures.push(`action ${act.status} ${act.body?.message ?? ''}`);
    const read = await api.call('GET', `/api/LeaseUpApplication/getDetailsById/${c.id}`, auth);
    if (read.status === 200) queryMs.push(read.ms);
    else failures.push(`detail ${read.status} ${read.body?.message ?? ''}`);
  }
  const history = await temporal.workflow.getHandle(leaseUpWorkflowId(cases[0]!.id)).describe();
  const lottery = await temporal.workflow.getHandle(lotteryWorkflowId(lotteryId)).describe();
  return {
    actionMs,
    queryMs,
    failures: [...new Set(failures)].slice(0, 3),
    historyEvents: history.historyLength ?? Number.NaN,
    actionsEach: Math.ceil(samples / cases.length),
    lotteryHistory: lottery.historyLength ?? Number.NaN,
  };
}
