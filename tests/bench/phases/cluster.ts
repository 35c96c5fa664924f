/**
 * `npm run bench -- --cluster`: the same applications and actions on the production shape
 * (`npm run start:cluster`: HAProxy, two API replicas, two workers, the Temporal server on
 * PostgreSQL) as on the bench's dev-server stack, in the same run: apply throughput with the CPU
 * each process spent per application, and an action's and a Query's latency one at a time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { clusterAppEnvironment } from '../../../infra/cluster/environment';
import { loadConfig } from '../../../infra/config';
import { createDb, type Db } from '../../../infra/db/database';
import { dataConverter } from '../../../infra/temporal/connection';
import { freeClusterEnv, startCluster } from '../../helpers/cluster';
import { cpuByPart, cpuSpent, readProcesses } from '../cpu';
import { Api, mintSessions } from '../http';
import { insertHouseholds, seedOpportunities } from '../seed';
import { summarize, type Summary } from '../stats';
import { ms, section, type FigureRow } from '../table';
import { applyThroughput, waitFirstTasks, waitProjected, type Applicant } from './apply';

/** What one shape did with the same work. */
export interface ShapeFigures {
  shape: string;
  applyPerSecond: number;
  applyFailures: number;
  /** CPU seconds of each process (and its children) from the first application until every one was projected and had run its first task. */
  cpuSeconds: Record<string, number>;
  applications: number;
  actionMs: Summary;
  queryMs: Summary;
  failures: string[];
}

/**
 * Applies `count` new households to the shape's first-come opportunity with `concurrency` in
 * flight, then times `samples` actions (UpdateInfo: one Update) and detail reads (one Query) on
 * those applications, one at a time.
 */
export async function measureShape(
  shape: string,
  target: { api: Api; db: Db; temporal: Client; jwtSecret: string; opportunityId: string; cpuNow: () => Promise<Record<string, number>> },
  options: { count: number; concurrency: number; samples: number; tag: string },
): Promise<ShapeFigures> {
  const households = await insertHouseholds(target.db, options.tag, 0, options.count);
  const tokens = await mintSessions(target.db, target.jwtSecret, households.map((h) => h.userId));
  const applicants: Applicant[] = households.map((h) => ({ userId: h.userId, householdSize: h.size, authorization: tokens.get(h.userId)! }));
  const before = await target.cpuNow();
  const applied = await applyThroughput(target.api, target.opportunityId, applicants, options.concurrency);
  const ids = applicants.map((a) => a.userId);
  await waitProjected(target.db, target.opportunityId, ids, 300_000);
  await waitFirstTasks(target.db, target.temporal, target.opportunityId, ids);
  const cpuSeconds = cpuSpent(before, await target.cpuNow());

  const cases = await target.db.selectFrom('applications').select(['id', 'applicant_user_id', 'household_size']).where('opportunity_id', '=', target.opportunityId).where('applicant_user_id', 'in', ids).limit(50).execute();
  const actionMs: number[] = [];
  const queryMs: number[] = [];
  const failures = applied.errors.map((e) => `apply ${e}`);
  for (let i = 0; i < options.samples && cases.length > 0; i++) {
    const c = cases[i % cases.length]!;
    const auth = tokens.get(c.applicant_user_id)!;
    const act = await target.api.call('POST', `/api/LeaseUpApplication/update-info/${c.id}`, auth, { householdSize: c.household_size, householdIncome: 48_000 + i });
    if (act.status === 200) actionMs.push(act.ms);
    else failures.push(`action ${act.status} ${act.body?.message ?? ''}`);
    const read = await target.api.call('GET', `/api/LeaseUpApplication/getDetailsById/${c.id}`, auth);
    if (read.status === 200) queryMs.push(read.ms);
    else failures.push(`detail ${read.status} ${read.body?.message ?? ''}`);
  }
  return { shape, applyPerSecond: applied.perSecond, applyFailures: applied.failures, cpuSeconds, applications: options.count, actionMs: summarize(actionMs), queryMs: summarize(queryMs), failures: [...new Set(failures)].slice(0, 3) };
}

/** Starts `npm run start:cluster` on free ports with an empty data folder, measures it, and stops it. */
export async function measureCluster(options: { count: number; concurrency: number; samples: number }, say: (line: string) => void): Promise<ShapeFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-bench-cluster-'));
  const env = await freeClusterEnv();
  const cluster = await startCluster(dataDir, env);
  say(`cluster ready in ${(cluster.startedInMs / 1000).toFixed(0)}s`);
  const config = loadConfig(await clusterAppEnvironment(process.env, dataDir, cluster.ports));
  const db = createDb(config);
  const connection = await Connection.connect({ address: cluster.temporalAddress });
  try {
    const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, dataConverter: dataConverter(config) });
    const seed = await seedOpportunities(db, new Date());
    const pid = (part: string) => Number([...cluster.output().matchAll(new RegExp(`\\[cluster\\] ${part} (?:started|restarted) \\(pid (\\d+)\\)`, 'g'))].at(-1)?.[1]);
    const parts = ['api-1', 'api-2', 'worker-1', 'worker-2', 'temporal', 'postgres', 'haproxy'];
    const cpuNow = async () => cpuByPart(await readProcesses(), { ...Object.fromEntries(parts.map((p) => [p, pid(p)])), 'the bench itself': process.pid }, { under: -1, names: {} });
    return await measureShape('cluster', { api: new Api(cluster.baseUrl), db, temporal, jwtSecret: config.JWT_SECRET!, opportunityId: seed.firstComeId, cpuNow }, { ...options, tag: 'bench-cluster' });
  } finally {
    await connection.close();
    await db.destroy();
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The two shapes side by side. */
export function shapeRows(dev: ShapeFigures | undefined, cluster: ShapeFigures | undefined, concurrency: number): FigureRow[] {
  const perApplication = (f: ShapeFigures) =>
    Object.entries(f.cpuSeconds)
      .filter(([, seconds]) => seconds > 0)
      .sort(([, a], [, b]) => b - a)
      .map(([part, seconds]) => `${part} ${ms((seconds * 1000) / Math.max(1, f.applications))}`)
      .join(', ');
  const rows: FigureRow[] = [section('Cluster shape beside the dev-server shape (same run, same work)')];
  for (const f of [dev, cluster]) {
    if (!f) continue;
    const label = f.shape === 'cluster' ? 'cluster (HAProxy, 2 APIs, 2 workers, Temporal server on PostgreSQL)' : 'dev server (1 API, 1 worker, Temporal dev server)';
    rows.push(
      { name: `${label}: apply throughput`, value: `${f.applyPerSecond.toFixed(1)}/s`, note: `${f.applications} applications, ${concurrency} in flight${f.applyFailures ? `; ${f.applyFailures} failed` : ''}${f.failures.length ? `; ${f.failures.join(', ')}` : ''}` },
      { name: `${label}: action (UpdateInfo)`, value: `p50 ${ms(f.actionMs.p50)}, p99 ${ms(f.actionMs.p99)}`, note: `${f.actionMs.n} one at a time` },
      { name: `${label}: detail (Query)`, value: `p50 ${ms(f.queryMs.p50)}, p99 ${ms(f.queryMs.p99)}` },
      { name: `${label}: CPU per application`, value: perApplication(f), note: 'user + system time of each process and its children (/proc)' },
    );
  }
  return rows;
}
