/**
 * The production shape broken on purpose under load: `npm run start:cluster` serves a steady mix of
 * applicants and managers through HAProxy (apply, lease-up actions, reads, chat, uploads, sign-ins
 * and token refreshes), while one API replica, one worker, the Temporal server and then PostgreSQL
 * are killed with SIGKILL in turn and brought back by the start command's supervisor. Afterwards
 * nothing is lost and nothing is done twice, and the recovery of each kill is printed as a table
 * (tests/.artifacts/cluster/recovery.md). How long each takes to come back is a figure, not a test.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { hash } from '@node-rs/argon2';
import { Client, Connection } from '@temporalio/client';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestKeyHash } from '../../api/plugins/idempotency';
import type { LeaseUpView } from '../../domain';
import { createBlobStore } from '../../infra/blobs';
import { clusterAppEnvironment } from '../../infra/cluster/environment';
import { loadConfig } from '../../infra/config';
import { keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { createDb, type Db } from '../../infra/db/database';
import { declaredIncomeOf } from '../../infra/db/repositories/declared-income';
import { dataConverter } from '../../infra/temporal/connection';
import { clusterParentEnv, freeClusterEnv, replayCheck, signInOver, startCluster, type RunningCluster } from '../helpers/cluster';
import { LoadClient, LoadSession, recoveries, recoveryTable, type Operation } from '../helpers/cluster-load';
import { listenToEvents } from '../helpers/event-stream';
import { TINY_PNG } from '../helpers/lease-up-env';
import { rentalInput } from '../helpers/lease-up-users';

const APPLICANTS = 16;
const PASSWORD = 'Load-test#2026';
/** Load before the first kill, and between a part's return and the next kill. */
const STEADY_MS = 20_000;
const MIN_LOAD_MS = 125_000;
const GOALS_MS = { 'api-1': 2_000, 'worker-1': 10_000, temporal: 30_000, postgres: 30_000 };

interface Applicant {
  session: LoadSession;
  householdId: string;
  applicationId: string | null;
}

describe('the cluster under load, broken on purpose', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let cluster: RunningCluster | undefined;
  let db: Db;
  let temporal: Client;
  let connection: Connection;
  let config: ReturnType<typeof loadConfig>;
  const client = { current: undefined as LoadClient | undefined };
  const applicants: Applicant[] = [];
  const kills: { part: string; at: number }[] = [];
  let loadStartedAt = 0;
  let loadEndedAt = 0;
  let opportunityId = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-faults-'));
    env = await freeClusterEnv();
    cluster = await startCluster(dataDir, env);
    const appEnv = await clusterAppEnvironment(clusterParentEnv(), dataDir, cluster.ports);
    config = loadConfig(appEnv);
    useDataKeys(keyRingFromConfig(config));
    db = createDb(config);
    connection = await Connection.connect({ address: cluster.temporalAddress });
    temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, dataConverter: dataConverter(config) });

    // The applicants: accounts with a password (they sign in for real) and complete households of
    // the demo manager's organisation, so they may write to its office.
    const manager = await db.selectFrom('users').select('organization_id').where('username', '=', 'manager').executeTakeFirstOrThrow();
    const passwordHash = await hash(PASSWORD);
    const load = new LoadClient(cluster.baseUrl);
    client.current = load;
    for (let i = 0; i < APPLICANTS; i++) {
      const username = `load-${i}`;
      const user = await db
        .insertInto('users')
        .values({ username, email: `${username}@example.test`, first_name: 'Load', last_name: `Applicant ${i}`, role: 'User', password_hash: passwordHash, email_verified: true } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const household = await db
        .insertInto('households')
        .values({ head_user_id: user.id, household_size: 2, profile_completion: 100, organization_id: manager.organization_id } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      applicants.push({ session: new LoadSession(load, username, PASSWORD), householdId: household.id, applicationId: null });
    }

    // A first-come opportunity of the manager's, open for the whole run.
    const managerSession = await signInOver(cluster.baseUrl, 'manager', 'Manager#2026');
    const created = await fetch(`${cluster.baseUrl}/api/Opportunity/manage`, {
      method: 'POST',
      headers: { authorization: managerSession.authorization, 'content-type': 'application/json' },
      body: JSON.stringify(rentalInput('Fault Line Houses', 60)),
    });
    const body = (await created.json()) as { data: { id: string } };
    expect(created.status, JSON.stringify(body)).toBe(201);
    opportunityId = body.data.id;
    const published = await fetch(`${cluster.baseUrl}/api/Opportunity/manage/${opportunityId}/publish`, { method: 'POST', headers: { authorization: managerSession.authorization } });
    expect(published.status).toBe(200);
  });

  afterAll(async () => {
    if (client.current) client.current.stopped = true;
    await connection?.close();
    await db?.destroy();
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const think = () => new Promise((done) => setTimeout(done, 250 + Math.random() * 350));

  async function applicantLoop(load: LoadClient, a: Applicant): Promise<void> {
    await a.session.signIn();
    const applied = await load.operate<{ applicationId: string }>('apply', a.session.username, 'POST', '/api/LeaseUpApplication/apply', {
      auth: a.session.auth,
      json: { opportunityId, householdSize: 2, householdIncome: 48_000, agreeToTerms: true },
    });
    a.applicationId = applied.data?.applicationId ?? null;
    for (let n = 1; !load.stopped; n++) {
      const id = a.applicationId!;
      switch (n % 6) {
        case 0:
          await load.read('list applications', '/api/LeaseUpApplication/getApplications', a.session.auth);
          break;
        case 1:
          await load.operate('update info', a.session.username, 'POST', `/api/LeaseUpApplication/update-info/${id}`, { auth: a.session.auth, json: { householdSize: 2, householdIncome: 48_000 + n } });
          break;
        case 2:
          await load.operate('chat', a.session.username, 'POST', '/api/Chat/SendMessage', { auth: a.session.auth, json: { message: `Question ${n} about my application` } });
          break;
        case 3:
          await load.read('application detail', `/api/LeaseUpApplication/getDetailsById/${id}`, a.session.auth);
          break;
        case 4:
          if (n % 12 === 4) {
            await load.operate('upload', a.session.username, 'POST', '/api/Document/UploadDocument', {
              auth: a.session.auth,
              form: () => {
                const form = new FormData();
                form.set('documentType', 'other');
                form.set('file', new Blob([TINY_PNG], { type: 'image/png' }), `letter-${n}.png`);
                return form;
              },
            });
          } else await load.read('unseen count', '/api/Chat/unseen-count', a.session.auth);
          break;
        default:
          await load.read('application status', `/api/LeaseUpApplication/check-application-status/${opportunityId}/${a.session.userId}`, a.session.auth);
      }
      if (n % 60 === 0) await a.session.refreshTokens();
      await think();
    }
  }

  async function managerLoop(load: LoadClient, session: LoadSession, index: number): Promise<void> {
    await session.signIn();
    const asked = new Set<string>();
    for (let n = 1; !load.stopped; n++) {
      await load.read('manager inbox', '/api/LeaseUpApplication/getApplications', session.auth);
      const mine = applicants.filter((a, i) => a.applicationId && i % 2 === index);
      const target = mine[n % Math.max(1, mine.length)];
      if (target?.applicationId) {
        const act = (action: string, json: object) => load.operate(action, session.username, 'POST', `/api/LeaseUpApplication/updateleaseapplicationstatus/${target.applicationId}/${action}`, { auth: session.auth, json });
        if (!asked.has(target.applicationId)) {
          const op = await act('RequestAdditionalDocuments', { documentTypes: ['pay_stub'], note: 'Your last two pay stubs, please' });
          if (op.status === 200) asked.add(target.applicationId);
        } else if (n % 3 === 0) {
          await act('SendReminder', { note: 'A reminder about your pay stubs' });
        } else {
          await load.operate('chat', session.username, 'POST', '/api/Chat/SendMessage', { auth: session.auth, json: { message: `We received your question (${n})`, householdId: target.householdId } });
        }
      }
      if (n % 60 === 0) await session.refreshTokens();
      await think();
    }
  }

  /** The pid of a part as the start command last said it started it. */
  const pidOf = (part: string) => {
    const matches = [...cluster!.output().matchAll(new RegExp(`\\[cluster\\] ${part} (?:started|restarted) \\(pid (\\d+)\\)`, 'g'))];
    return Number(matches.at(-1)![1]);
  };
  const restarts = (part: string) => cluster!.output().split(`[cluster] ${part} restarted`).length - 1;

  async function killAndAwaitReturn(part: string, ready: () => Promise<boolean>): Promise<void> {
    const before = restarts(part);
    kills.push({ part, at: Date.now() });
    process.kill(pidOf(part), 'SIGKILL');
    await expect.poll(() => restarts(part), { timeout: 180_000, message: `${part} was not restarted` }).toBeGreaterThan(before);
    await expect.poll(ready, { timeout: 180_000, message: `${part} did not serve again` }).toBe(true);
  }

  const ok = async (url: string) => {
    try {
      return (await fetch(url, { signal: AbortSignal.timeout(5000) })).status === 200;
    } catch {
      return false;
    }
  };
  const steady = () => new Promise((done) => setTimeout(done, STEADY_MS));

  it('serves the load while an API replica, a worker, the Temporal server and PostgreSQL are each killed and come back', async () => {
    const load = client.current!;
    loadStartedAt = Date.now();
    const managers = [new LoadSession(load, 'manager', 'Manager#2026'), new LoadSession(load, 'manager', 'Manager#2026')];
    const loops = [...applicants.map((a) => applicantLoop(load, a)), ...managers.map((m, i) => managerLoop(load, m, i))];
    const failedLoop = Promise.race(loops.map((l) => l.then(() => new Promise<never>(() => {}))));
    const schedule = (async () => {
      await steady();
      await killAndAwaitReturn('api-1', () => ok(`${cluster!.replicaUrls[0]}/readyz`));
      await steady();
      await killAndAwaitReturn('worker-1', async () => true);
      await steady();
      await killAndAwaitReturn('temporal', () => ok(`${cluster!.baseUrl}/readyz`));
      await steady();
      await killAndAwaitReturn('postgres', () => ok(`${cluster!.baseUrl}/readyz`));
      await steady();
      // At least two minutes of load in all, however quickly the parts came back.
      await new Promise((done) => setTimeout(done, Math.max(0, loadStartedAt + MIN_LOAD_MS - Date.now())));
    })();
    await Promise.race([schedule, failedLoop]);
    load.stopped = true;
    await Promise.all(loops);
    loadEndedAt = Date.now();

    const table = recoveryTable(recoveries(load.attempts, kills, loadEndedAt), GOALS_MS);
    // What the supervisor did meanwhile: which parts ended and came back (a part the kill did not target shows here too).
    const supervisor = cluster!.output().split('\n').filter((line) => /\[cluster\] \S+ (exited|restarted|could not start)/.test(line));
    const summary = `load: ${load.attempts.length} requests, ${load.operations.length} changes in ${Math.round((loadEndedAt - loadStartedAt) / 1000)} s from ${APPLICANTS} applicants and 2 managers`;
    await mkdir(join('tests', '.artifacts', 'cluster'), { recursive: true });
    await writeFile(join('tests', '.artifacts', 'cluster', 'recovery.md'), `${summary}\n\n${table}\n\nsupervisor:\n${supervisor.join('\n')}\n`);
    process.stdout.write(`${summary}\n${table}\nsupervisor:\n${supervisor.join('\n')}\n`);

    expect(loadEndedAt - loadStartedAt).toBeGreaterThanOrEqual(MIN_LOAD_MS);
    expect(kills.map((k) => k.part)).toEqual(['api-1', 'worker-1', 'temporal', 'postgres']);
    // Each killed part ended once; nothing else ended (a PostgreSQL restart takes no API or worker down with it).
    const ended = supervisor.map((line) => /\[cluster\] (\S+) exited/.exec(line)?.[1]).filter(Boolean);
    expect(ended, await lastWords(ended.filter((part) => !kills.some((k) => k.part === part)) as string[])).toEqual(kills.map((k) => k.part));
    // Every change got a final answer; no request hung past 30 s; every 5xx came in the envelope.
    expect(load.operations.filter((op) => op.gaveUp).map((op) => `${op.kind} ${op.status}`)).toEqual([]);
    expect(load.attempts.filter((a) => a.status === -1).map((a) => a.kind)).toEqual([]);
    expect(load.attempts.filter((a) => a.status >= 500 && !a.enveloped).map((a) => `${a.kind} ${a.status}`)).toEqual([]);
    // Every change the load made was one it may make: a refusal would mean a retry was taken as a new request.
    const refused = load.operations.filter((op) => op.status >= 400 && !(op.kind === 'apply' && op.status === 409));
    expect(refused.map((op) => `${op.kind} ${op.status}`)).toEqual([]);
  });

  const workflowIdOf = async (applicationId: string) => (await db.selectFrom('applications').select('workflow_id').where('id', '=', applicationId).executeTakeFirstOrThrow()).workflow_id;
  /** The last lines a part wrote before it ended unasked (its log in the cluster's data folder). */
  const lastWords = async (parts: string[]) => {
    const tails = await Promise.all(parts.map(async (part) => `${part}:\n${(await readFile(join(dataDir, 'logs', `${part}.log`), 'utf8').catch(() => '')).split('\n').slice(-15).join('\n')}`));
    return tails.join('\n').slice(-6000);
  };
  const succeeded = (kind: string, status: number) => client.current!.operations.filter((op) => op.kind === kind && op.status === status);

  it('every application made exists once, and each action taken is in its case once', async () => {
    const rows = await db.selectFrom('applications').select(['id', 'applicant_user_id']).where('opportunity_id', '=', opportunityId).execute();
    expect(rows).toHaveLength(APPLICANTS);
    for (const a of applicants) expect(rows.filter((r) => r.applicant_user_id === a.session.userId).map((r) => r.id)).toEqual([a.applicationId]);
    for (const a of applicants) {
      const view = await temporal.workflow.getHandle(await workflowIdOf(a.applicationId!)).query<LeaseUpView>('getView');
      const count = (action: string) => view.history.filter((h) => h.action === action).length;
      const done = (kind: string) => client.current!.operations.filter((op) => op.kind === kind && op.status === 200 && op.path.includes(a.applicationId!)).length;
      expect(count('UpdateInfo'), a.session.username).toBe(done('update info'));
      expect(count('RequestAdditionalDocuments'), a.session.username).toBe(done('RequestAdditionalDocuments'));
      expect(count('SendReminder'), a.session.username).toBe(done('SendReminder'));
    }
  });

  it('every chat message and document sent exists once, and nothing was sent that the client does not know of', async () => {
    const sent = succeeded('chat', 201);
    const userIdOf = (who: string) => (who === 'manager' ? managerId : applicants.find((a) => a.session.username === who)!.session.userId);
    const managerId = (await db.selectFrom('users').select('id').where('username', '=', 'manager').executeTakeFirstOrThrow()).id;
    for (const op of sent) {
      const rows = await db.selectFrom('chat_messages').select('id').where('request_key', '=', requestKeyHash(userIdOf(op.who), op.key)).execute();
      expect(rows, `${op.who} ${op.key}`).toHaveLength(1);
    }
    const ids = [...applicants.map((a) => a.session.userId), managerId];
    const written = await db.selectFrom('chat_messages').select((eb) => eb.fn.countAll<string>().as('n')).where('sender_user_id', 'in', ids).where('created_at', '>=', new Date(loadStartedAt - 60_000)).executeTakeFirstOrThrow();
    expect(Number(written.n)).toBe(sent.length);

    const uploads = succeeded('upload', 201) as Operation<{ id: string }[]>[];
    const documents = await db.selectFrom('household_documents').select(['id', 'household_id']).where('household_id', 'in', applicants.map((a) => a.householdId)).execute();
    expect(documents.map((d) => d.id).sort()).toEqual(uploads.flatMap((op) => op.data!.map((d) => d.id)).sort());
  });

  it('every read-model row equals its workflow view, and every workflow has its row', async () => {
    for (const a of applicants) {
      // What differs between the row and the workflow's view ('' when nothing does).
      const difference = async () => {
        const view = await temporal.workflow.getHandle(await workflowIdOf(a.applicationId!)).query<LeaseUpView>('getView');
        const row = await db.selectFrom('applications').select(['view', 'household_income', 'household_income_encrypted']).where('id', '=', a.applicationId!).executeTakeFirstOrThrow();
        // The declared income is kept sealed beside the view, not in it.
        const projected = { ...((row.view ?? {}) as Partial<LeaseUpView>), householdIncome: declaredIncomeOf(row) };
        return (['status', 'currentStep', 'householdSize', 'householdIncome', 'history', 'outstandingDocuments'] as const)
          // As JSON values: jsonb keeps no key order and no undefined.
          .filter((field) => !isDeepStrictEqual(projected[field], JSON.parse(JSON.stringify(view[field] ?? null))))
          .map((field) => `${field}: row ${JSON.stringify(projected[field])?.slice(-300)} / workflow ${JSON.stringify(view[field])?.slice(-300)}`)
          .join('; ');
      };
      await expect.poll(difference, { timeout: 120_000, message: `the row of ${a.session.username}'s application never caught up with its workflow` }).toBe('');
    }
    const rows = new Set((await db.selectFrom('applications').select('workflow_id').execute()).map((r) => r.workflow_id));
    const missing: string[] = [];
    for await (const wf of temporal.workflow.list({ query: `WorkflowType = 'leaseUpApplication'` })) if (!rows.has(wf.workflowId)) missing.push(wf.workflowId);
    expect(missing).toEqual([]);
    expect(rows.size).toBeGreaterThanOrEqual(APPLICANTS);
  });

  it('every history replays with the current code', async () => {
    const { code, report } = await replayCheck(dataDir, env, null, `WorkflowType = 'leaseUpApplication'`);
    expect(code, report).toBe(0);
    expect(report).toMatch(/leaseUpApplication/);
  });

  it('no notice is stuck in the outbox, and every document row has its file and every file its row', async () => {
    await expect
      .poll(async () => Number((await sql<{ n: string }>`select count(*) as n from notification_outbox where status <> 'sent'`.execute(db)).rows[0]!.n), { timeout: 120_000, message: 'notices still unsent' })
      .toBe(0);
    const blobs = createBlobStore(config);
    const files = new Set<string>();
    for await (const key of blobs.list('households/')) if (/^households\/[^/]+\/documents\/[^/]+$/.test(key)) files.add(key);
    const rows = new Set((await db.selectFrom('household_documents').select('blob_key').where('blob_key', 'is not', null).execute()).map((r) => r.blob_key!));
    expect([...rows].filter((k) => !files.has(k))).toEqual([]);
    expect([...files].filter((k) => !rows.has(k))).toEqual([]);
  });

  it('across the replicas: chat reaches the other, sign-in limits count together, and a reused refresh token ends its family', async () => {
    const [one, other] = cluster!.replicaUrls;
    const manager = await signInOver(one, 'manager', 'Manager#2026');
    const applicant = applicants[0]!;
    const stream = await listenToEvents(`${one}/api/Chat/events`, manager);
    try {
      const tenant = await signInOver(other, applicant.session.username, PASSWORD);
      const sent = await fetch(`${other}/api/Chat/SendMessage`, { method: 'POST', headers: { authorization: tenant.authorization, 'content-type': 'application/json' }, body: JSON.stringify({ message: 'After the outage: is my application safe?' }) });
      expect(sent.status).toBe(201);
      await expect.poll(() => stream.events.filter((e) => e.event === 'chat').length).toBeGreaterThan(0);
    } finally {
      stream.stop();
    }

    // Wrong passwords sent to each replica in turn: the account and address pair is throttled after five, on both.
    const attempt = (url: string) => fetch(`${url}/api/Account/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: applicants[1]!.session.username, password: 'not-the-password' }) });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt(i % 2 === 0 ? one : other)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await attempt(other)).status).toBe(429);
    expect((await attempt(one)).status).toBe(429);

    // A refresh token used on one replica, then again on the other: refused, and the family it belongs to ends.
    const login = await fetch(`${one}/api/Account/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: applicants[2]!.session.username, password: PASSWORD }) });
    const first = ((await login.json()) as { data: { refreshToken: string } }).data.refreshToken;
    const refresh = (url: string, refreshToken: string) => fetch(`${url}/api/Account/refresh-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken }) });
    const rotated = await refresh(other, first);
    expect(rotated.status).toBe(200);
    const second = ((await rotated.json()) as { data: { refreshToken: string } }).data.refreshToken;
    expect((await refresh(one, first)).status).toBe(401);
    expect((await refresh(other, second)).status).toBe(401);
  });
});

