/**
 * `node --import tsx tests/bench/case-probe.ts`: one action and one read of a lease-up case broken
 * into their parts on the bench stack (PROBE_N lottery applications, 50 invited): over HTTP, the
 * same Update or Query sent straight to the workflow, the bare workflow's, the API's access query
 * alone, and a one-query route. Three rounds of 100, interleaved. Figures only; nothing asserted.
 *
 * With WORKER_METRICS_ADDRESS set (host:port), each round also prints the worker's own SDK metrics
 * over that round (mean per workflow task, local activity and request): where the portal workflow's
 * Update spends the time the bare one does not (its workflow task stays open while the projection,
 * a local activity, writes to PostgreSQL).
 */
import { ensureLotteries } from '../../worker/lotteries';
import { Api, mintSessions } from './http';
import { growLottery, seedOpportunities } from './seed';
import { startBenchStack } from './stack';
import { draw, invite, waitForClosed } from './phases/lottery';
import { summarize } from './stats';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { leaseUpMessages } from '../../workflows/lease-up.messages';
import { access } from '../../api/services/lease-up';
import { projectApplication } from '../../infra/db/repositories/lease-up-projection';
import { useDataKeys } from '../../infra/data-keys';
import { keyRingFromConfig } from '../../infra/crypto';
import { bump, peek } from './bare-workflows';
import { BARE_TASK_QUEUE } from './stack';

const N = Number(process.env.PROBE_N ?? 2000);
const stack = await startBenchStack();
useDataKeys(keyRingFromConfig(stack.config));
const api = new Api(stack.baseUrl);
/** The SDK's histograms (sum and count per series) from the worker's Prometheus endpoint, or null without one. */
async function workerMetrics(): Promise<Map<string, number> | null> {
  const address = process.env.WORKER_METRICS_ADDRESS;
  if (!address) return null;
  const series = new Map<string, number>();
  for (const line of (await (await fetch(`http://${address}/metrics`)).text()).split('\n')) {
    const match = /^(temporal_[a-z_]+_(?:sum|count))(\{[^}]*\})? (\S+)$/.exec(line);
    if (match) series.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return series;
}

/** Each histogram that moved between two readings: its mean over the new observations. */
function printMetricMeans(before: Map<string, number> | null, after: Map<string, number> | null): void {
  if (!before || !after) return;
  for (const [key, sum] of after) {
    if (!key.includes('_sum')) continue;
    const countKey = key.replace('_sum', '_count');
    const n = (after.get(countKey) ?? 0) - (before.get(countKey) ?? 0);
    if (n <= 0) continue;
    const name = key.replace(/(namespace|service_name|task_queue)="[^"]*",?/g, '');
    console.log(`  ${name.slice(0, 110).padEnd(110)} n ${String(n).padStart(4)} mean ${((sum - (before.get(key) ?? 0)) / n).toFixed(2)} ms`);
  }
}

const fmt = (name: string, xs: number[]) => { const s = summarize(xs); console.log(name.padEnd(36), `p50 ${s.p50.toFixed(2)} p95 ${s.p95.toFixed(2)} p99 ${s.p99.toFixed(2)}`); };
try {
  const now = new Date();
  const seed = await seedOpportunities(stack.db, now);
  // Started once the list is whole: it freezes the list at once (bench lotteries have no mail grace period).
  await growLottery(stack.db, seed, N, now);
  await ensureLotteries(stack.db, stack.temporal, stack.config.TEMPORAL_TASK_QUEUE);
  await waitForClosed(stack.db, seed.lotteryId);
  const manager = await api.login('Manager');
  const d = await draw(api, manager, seed.lotteryId);
  console.log('draw', d.drawMs.toFixed(0), 'ms');
  await invite(api, stack.db, manager, seed.lotteryId, 50);
  const cases = await stack.db.selectFrom('applications').select(['id', 'applicant_user_id', 'household_size']).where('opportunity_id', '=', seed.lotteryId).where('invited_at', 'is not', null).where('state_version', '>', 0).orderBy('lottery_rank').limit(50).execute();
  const tokens = await mintSessions(stack.db, stack.config.JWT_SECRET!, cases.map((c) => c.applicant_user_id));
  const bareId = `bench-bare/probe`;
  await stack.temporal.workflow.start('bareCase', { workflowId: bareId, taskQueue: BARE_TASK_QUEUE, args: [{ id: bareId }] });
  const bare = stack.temporal.workflow.getHandle(bareId);
  await bare.query(peek);
  const t: Record<string, number[]> = { httpAction: [], directUpdate: [], bareUpdate: [], httpDetail: [], directQuery: [], bareQuery: [], dbAccess: [], projection: [], httpCounts: [] };
  const time = async (k: string, f: () => Promise<unknown>) => { const s = performance.now(); await f(); t[k]!.push(performance.now() - s); };
  for (let round = 0; round < 3; round++) {
    const metricsBefore = await workerMetrics();
    for (let i = 0; i < 100; i++) {
      const c = cases[i % cases.length]!;
      const auth = tokens.get(c.applicant_user_id)!;
      const h = stack.temporal.workflow.getHandle(leaseUpWorkflowId(c.id));
      const session = { userId: c.applicant_user_id, role: 'User', realUserId: null } as never;
      await time('httpAction', async () => { const r = await api.call('POST', `/api/LeaseUpApplication/update-info/${c.id}`, auth, { householdSize: c.household_size, householdIncome: 48_000 + i }); if (r.status !== 200) throw new Error(JSON.stringify(r.body)); });
      await time('directUpdate', () => h.executeUpdate(leaseUpMessages.updates.UpdateInfo, { args: [{ householdSize: c.household_size, householdIncome: 49_000 + i, actor: { userId: c.applicant_user_id, role: 'applicant', impersonatedBy: null } } as never] }));
      await time('bareUpdate', () => bare.executeUpdate(bump, { args: [{ by: 1 }] }));
      await time('httpDetail', async () => { const r = await api.call('GET', `/api/LeaseUpApplication/getDetailsById/${c.id}`, auth); if (r.status !== 200) throw new Error(JSON.stringify(r.body)); });
      await time('directQuery', () => h.query(leaseUpMessages.getView));
      await time('bareQuery', () => bare.query(peek));
      await time('dbAccess', () => access(stack.db, session, c.id));
      const view = await h.query(leaseUpMessages.getView);
      await time('projection', () => projectApplication(stack.db, view));
      await time('httpCounts', () => api.call('GET', `/api/LeaseUpApplication/counts`, auth));
    }
    console.log(`--- round ${round}`);
    printMetricMeans(metricsBefore, await workerMetrics());
    for (const [k, xs] of Object.entries(t)) { fmt(k, xs); xs.length = 0; }
  }
} finally {
  await stack.close(false);
  process.exit(0);
}
