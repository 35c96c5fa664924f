/**
 * One case's costs against the bare client's: an applicant's action over HTTP (UpdateInfo, one
 * Update of the case's workflow), the same Update sent straight to the workflow with the client
 * (what the workflow costs without the API: its answer waits for the projection it writes), and the
 * application's detail (one Query), each timed one at a time; the history length of an invited
 * case; the opportunity workflow's history length.
 */
import type { Client } from '@temporalio/client';
import { lotteryWorkflowId } from '../../../domain';
import type { Db } from '../../../infra/db/database';
import { leaseUpWorkflowId } from '../../../infra/temporal/ids';
import { leaseUpMessages } from '../../../workflows/lease-up.messages';
import { mintSessions, type Api } from '../http';

export interface CaseFigures {
  actionMs: number[];
  /** The same UpdateInfo sent straight to the case's workflow, without the API. */
  directUpdateMs: number[];
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
  const directUpdateMs: number[] = [];
  const queryMs: number[] = [];
  const failures: string[] = [];
  for (let i = 0; i < samples; i++) {
    const c = cases[i % cases.length]!;
    const auth = tokens.get(c.applicant_user_id)!;
    const act = await api.call('POST', `/api/LeaseUpApplication/update-info/${c.id}`, auth, { householdSize: c.household_size, householdIncome: 48_000 + i });
    if (act.status === 200) actionMs.push(act.ms);
    else failures.push(`action ${act.status} ${act.body?.message ?? ''}`);
    const started = performance.now();
    await temporal.workflow.getHandle(leaseUpWorkflowId(c.id)).executeUpdate(leaseUpMessages.updates.UpdateInfo, {
      args: [{ householdSize: c.household_size, householdIncome: 49_000 + i, actor: { userId: c.applicant_user_id, role: 'applicant', impersonatedBy: null } }],
    });
    directUpdateMs.push(performance.now() - started);
    const read = await api.call('GET', `/api/LeaseUpApplication/getDetailsById/${c.id}`, auth);
    if (read.status === 200) queryMs.push(read.ms);
    else failures.push(`detail ${read.status} ${read.body?.message ?? ''}`);
  }
  const history = await temporal.workflow.getHandle(leaseUpWorkflowId(cases[0]!.id)).describe();
  const lottery = await temporal.workflow.getHandle(lotteryWorkflowId(lotteryId)).describe();
  return {
    actionMs,
    directUpdateMs,
    queryMs,
    failures: [...new Set(failures)].slice(0, 3),
    historyEvents: history.historyLength ?? Number.NaN,
    // Each sample sends UpdateInfo twice (over HTTP, then straight).
    actionsEach: 2 * Math.ceil(samples / cases.length),
    lotteryHistory: lottery.historyLength ?? Number.NaN,
  };
}
