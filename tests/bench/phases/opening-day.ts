/**
 * Opening day of a lottery: `people` households arrive over `minutes` (half in the first minute;
 * tests/bench/arrivals.ts), each as a browser would: the public list, the lottery's page, sign in
 * with a password, the profile, apply, then the application. Meanwhile managers work a backlog in
 * their inbox, one request every 1 to 2 s each. Then applications close and a manager draws, and
 * every application taken during the run must be ranked. Real HTTP against the bench's stack; each
 * person comes from an address of their own (X-Forwarded-For through a trusted proxy), as sign-in
 * limits count per address.
 */
import { sql } from 'kysely';
import { loadavg } from 'node:os';
import { ensureLotteries } from '../../../worker/lotteries';
import { arrivalOffsets, arrivalsPerMinute } from '../arrivals';
import { cpuByPart, cpuSpent, readProcesses } from '../cpu';
import { Api } from '../http';
import { loadNow } from '../machine';
import { closeApplications, insertManagers, insertPeople, OPENING_DAY_PASSWORD, openingDayPasswordHash, seedOpenLottery, type Person } from '../opening-day-seed';
import { Requests, type KindFigures } from '../requests';
import { growLottery, seedOpportunities } from '../seed';
import type { BenchStack } from '../stack';
import { since } from '../stats';
import { count, ms, section, type FigureRow } from '../table';
import { draw, waitForClosed } from './lottery';

/** The stack believes X-Forwarded-For from the bench itself, so each person signs in from an address of their own. */
export const OPENING_DAY_ENV = { TRUSTED_PROXIES: '127.0.0.1' };

export const MANAGERS = 20;
/** Open tasks in the managers' inbox before the day starts (lease-up cases of an earlier lottery). */
const BACKLOG = 5_000;
const P99_GOAL_MS = 300;
/** A request unanswered after this long counts as an error (and no request holds the run up). */
const TIMEOUT_MS = 30_000;

/** People who sign in all at the same moment, `BURST_AT_MS` into the day (or halfway through a shorter run). */
const BURST = 50;
const BURST_AT_MS = 30_000;
/** Every other kind's p99 while the burst is answered, against its p99 outside it. */
const BURST_SLOWDOWN_GOAL = 1.2;
/** Tries of one burst sign-in: a busy answer (429 serverBusy) is tried again, as the web app does. */
const BURST_ATTEMPTS = 4;

const PEOPLE_KINDS = ['public list', 'one opportunity', 'sign in', 'burst sign in', 'profile', 'apply', 'application detail'];
const MANAGER_KINDS = ['manager sign in', 'manager inbox', 'manager opens a case'];

export interface OpeningDayFigures {
  people: number;
  minutes: number;
  perMinute: number[];
  kinds: KindFigures[];
  /** People whose every request was answered as expected. */
  finished: number;
  applied: number;
  /** How late the bench started the latest arrival (its own lag: a large figure means the driver, not the API, was behind). */
  maxLateMs: number;
  loadSeconds: number;
  load: { start: string; peak: number; end: string };
  cpuSeconds: Record<string, number>;
  draw: { ranked: number; entries: number; drawMs: number } | { error: string };
  /** The burst of simultaneous sign-ins, and how every kind fared while it was answered. */
  burst: { busyRetries: number; during: { kind: string; inside: KindFigures['summary']; outside: KindFigures['summary'] }[] };
  restarts: { api: number; worker: number };
}

type Say = (line: string) => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A distinct client address per person (10.x.y.z), and per manager (10.255.0.z). */
const personAddress = (i: number) => `10.${((i + 1) >> 16) & 255}.${((i + 1) >> 8) & 255}.${(i + 1) & 255}`;
const managerAddress = (i: number) => `10.255.0.${i + 1}`;

export async function openingDay(stack: BenchStack, size: { people: number; minutes: number }, say: Say): Promise<OpeningDayFigures> {
  const { db } = stack;
  const api = new Api(stack.baseUrl);
  const now = new Date();
  const backlog = await seedOpportunities(db, now);
  await growLottery(db, backlog, BACKLOG, now);
  const lotteryId = await seedOpenLottery(db, backlog.organizationId, now);
  const passwordHash = await openingDayPasswordHash();
  const people = await insertPeople(db, size.people, passwordHash);
  const bursting = await insertPeople(db, BURST, passwordHash);
  const managers = await insertManagers(db, backlog.organizationId, MANAGERS, passwordHash);
  await sql`analyze`.execute(db);
  say(`seeded: ${count(size.people)} households, ${MANAGERS} managers, ${count(BACKLOG)} tasks in their inbox`);

  const requests = new Requests([...PEOPLE_KINDS, ...MANAGER_KINDS]);
  const cpuNow = async () =>
    cpuByPart(
      await readProcesses(),
      { worker: stack.worker.pid(), 'bare worker': stack.bare.pid(), API: stack.api.pid(), PostgreSQL: stack.services.pids.postgres, 'the bench itself': process.pid },
      { under: process.pid, names: { temporal: 'Temporal server' } },
    );
  const loadStart = loadNow();
  let loadPeak = loadavg()[0]!;
  const sampler = setInterval(() => (loadPeak = Math.max(loadPeak, loadavg()[0]!)), 2_000);
  const cpuBefore = await cpuNow();
  const start = performance.now();
  const offsets = arrivalOffsets(size.people, size.minutes);
  const stop = { done: false };
  const working = Promise.all(managers.map((username, i) => workTheInbox(api, requests, username, managerAddress(i), stop)));
  const applicationIds: string[] = [];
  let finished = 0;
  let maxLateMs = 0;
  const arriving: Promise<void>[] = [];
  const burstAt = start + Math.min(BURST_AT_MS, (size.minutes * 60_000) / 2);
  const burst = { from: Infinity, to: Infinity, busyRetries: 0 };
  const burstDone = (async () => {
    for (let wait = burstAt - performance.now(); wait > 0; wait = burstAt - performance.now()) await sleep(Math.ceil(wait));
    burst.from = performance.now();
    say(`${BURST} sign in at once at ${(since(start) / 1000).toFixed(0)} s`);
    await Promise.all(bursting.map((person, i) => burstSignIn(api, requests, person.username, personAddress(people.length + i), burst)));
    burst.to = performance.now();
  })();
  for (let i = 0; i < people.length; i++) {
    const due = start + offsets[i]!;
    for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) await sleep(Math.ceil(wait));
    maxLateMs = Math.max(maxLateMs, performance.now() - due);
    arriving.push(
      arrive(api, requests, people[i]!, personAddress(i), lotteryId).then((outcome) => {
        if (outcome.applicationId) applicationIds.push(outcome.applicationId);
        if (outcome.clean) finished++;
      }),
    );
    if (i > 0 && i % Math.max(1, Math.floor(people.length / 10)) === 0) say(`${i} of ${people.length} arrived at ${(since(start) / 1000).toFixed(0)} s (load ${loadNow()})`);
  }
  await Promise.all(arriving);
  await burstDone;
  stop.done = true;
  await working;
  const loadSeconds = since(start) / 1000;
  const cpuSeconds = cpuSpent(cpuBefore, await cpuNow());
  clearInterval(sampler);
  const loadEnd = loadNow();
  say(`${finished} of ${people.length} people done in ${loadSeconds.toFixed(0)} s; ${applicationIds.length} applied`);

  let drawn: OpeningDayFigures['draw'];
  try {
    drawn = await closeAndDraw(api, stack, lotteryId, applicationIds, say);
  } catch (error) {
    drawn = { error: error instanceof Error ? error.message : String(error) };
  }
  return {
    people: size.people,
    minutes: size.minutes,
    perMinute: arrivalsPerMinute(offsets, size.minutes),
    // The rush against the trickle: requests sent in the first minute, and after it.
    kinds: requests.figures(size.minutes > 1 ? start + 60_000 : undefined),
    finished,
    applied: applicationIds.length,
    maxLateMs,
    loadSeconds,
    load: { start: loadStart, peak: loadPeak, end: loadEnd },
    cpuSeconds,
    draw: drawn,
    burst: { busyRetries: burst.busyRetries, during: requests.during(burst.from, burst.to) },
    restarts: { api: stack.api.crashes.length, worker: stack.worker.crashes.length },
  };
}

/** One person's visit, in the web app's order; stops where a later step needs what a failed one gives. */
async function arrive(api: Api, requests: Requests, person: Person, address: string, lotteryId: string): Promise<{ applicationId: string | null; clean: boolean }> {
  const as = { headers: { 'x-forwarded-for': address }, timeoutMs: TIMEOUT_MS };
  const answered = [
    await requests.send('public list', 200, () => api.call('GET', '/api/Opportunity/published-opportunities?type=all', undefined, undefined, as)),
    await requests.send('one opportunity', 200, () => api.call('GET', `/api/Opportunity/${lotteryId}`, undefined, undefined, as)),
  ];
  const auth = await signIn(api, requests, 'sign in', person.username, as);
  if (!auth) return { applicationId: null, clean: false };
  answered.push(await requests.send('profile', 200, () => api.call('GET', '/api/Household/profile', auth, undefined, as)));
  const applied = await requests.send<{ applicationId: string }>('apply', 201, () =>
    api.call('POST', '/api/LeaseUpApplication/apply', auth, { opportunityId: lotteryId, householdSize: person.householdSize, householdIncome: 48_000, agreeToTerms: true }, as),
  );
  const applicationId = applied?.body?.data?.applicationId ?? null;
  if (!applicationId) return { applicationId: null, clean: false };
  answered.push(await requests.send('application detail', 200, () => api.call('GET', `/api/LeaseUpApplication/getDetailsById/${applicationId}`, auth, undefined, as)));
  return { applicationId, clean: answered.every((res) => res !== null) };
}

async function signIn(api: Api, requests: Requests, kind: string, username: string, as: { headers: Record<string, string>; timeoutMs: number }): Promise<string | null> {
  const res = await requests.send<{ accessToken?: string }>(kind, 200, () => api.call('POST', '/api/Account/login', undefined, { username, password: OPENING_DAY_PASSWORD }, as));
  const token = res?.body?.data?.accessToken;
  if (res && !token) requests.fail(kind, 'signed in without an access token');
  return token ? `Bearer ${token}` : null;
}

/** One of the burst's sign-ins: tried again a second later while the answer is 429 serverBusy; its figure is the whole wait. */
async function burstSignIn(api: Api, requests: Requests, username: string, address: string, burst: { busyRetries: number }): Promise<void> {
  const as = { headers: { 'x-forwarded-for': address }, timeoutMs: TIMEOUT_MS };
  await requests.send('burst sign in', 200, async () => {
    const start = performance.now();
    for (let attempt = 1; ; attempt++) {
      const res = await api.call<{ accessToken?: string; code?: string }>('POST', '/api/Account/login', undefined, { username, password: OPENING_DAY_PASSWORD }, as);
      if (res.status !== 429 || res.body?.data?.code !== 'serverBusy' || attempt === BURST_ATTEMPTS) return { ...res, ms: since(start) };
      burst.busyRetries++;
      await sleep(1_000);
    }
  });
}

/**
 * One manager until the people are done: the inbox (the first page, or the next one as the manager
 * scrolls, one time in three), then a lease-up case from it, one request every 1 to 2 s.
 */
async function workTheInbox(api: Api, requests: Requests, username: string, address: string, stop: { done: boolean }): Promise<void> {
  const as = { headers: { 'x-forwarded-for': address }, timeoutMs: TIMEOUT_MS };
  const pause = () => sleep(1_000 + Math.random() * 1_000);
  await sleep(Math.random() * 2_000);
  const auth = await signIn(api, requests, 'manager sign in', username, as);
  if (!auth) return;
  let cursor: string | null = null;
  while (!stop.done) {
    const query: string = cursor && Math.random() < 1 / 3 ? `?limit=50&cursor=${encodeURIComponent(cursor)}` : '?limit=50';
    const page = await requests.send<{ items: { caseKind: string; caseId: string }[]; nextCursor: string | null }>('manager inbox', 200, () => api.call('GET', `/api/ManagerTasks${query}`, auth, undefined, as));
    cursor = page?.body?.data?.nextCursor ?? null;
    const cases = (page?.body?.data?.items ?? []).filter((t) => t.caseKind === 'lease_up');
    await pause();
    if (stop.done || cases.length === 0) continue;
    const chosen = cases[Math.floor(Math.random() * cases.length)]!;
    await requests.send('manager opens a case', 200, () => api.call('GET', `/api/LeaseUpApplication/getDetailsById/${chosen.caseId}`, auth, undefined, as));
    await pause();
  }
}

/** Closes applications, waits for the frozen list, draws as the demo manager, and counts the run's applications that got a rank. */
async function closeAndDraw(api: Api, stack: BenchStack, lotteryId: string, applicationIds: string[], say: Say): Promise<{ ranked: number; entries: number; drawMs: number }> {
  await closeApplications(stack.db, lotteryId, new Date());
  await ensureLotteries(stack.db, stack.temporal, stack.config.TEMPORAL_TASK_QUEUE);
  await waitForClosed(stack.db, lotteryId, 120_000);
  const drawn = await draw(api, await api.login('Manager'), lotteryId);
  say(`drawn in ${(drawn.drawMs / 1000).toFixed(1)} s: ${drawn.entries} entries`);
  const row = await sql<{ ranked: string }>`
    select count(*) as ranked from applications
    where id = any(${applicationIds}::uuid[]) and opportunity_id = ${lotteryId} and lottery_rank is not null and status = 'waitlisted'`.execute(stack.db);
  return { ranked: Number(row.rows[0]?.ranked ?? 0), entries: drawn.entries, drawMs: drawn.drawMs };
}

function burstRows(f: OpeningDayFigures): FigureRow[] {
  const rows: FigureRow[] = [section(`A burst of ${BURST} sign-ins at once during the day (${f.burst.busyRetries} answered busy and tried again)`)];
  for (const k of f.burst.during) {
    if (k.kind === 'burst sign in' || k.inside.n === 0 || k.outside.n === 0) continue;
    const ratio = k.inside.p99 / k.outside.p99;
    rows.push({
      name: `${k.kind} during the burst`,
      value: `p99 ${ms(k.inside.p99)} (${count(k.inside.n)}), ${ratio.toFixed(2)}x its p99 outside it`,
      goal: `<= ${BURST_SLOWDOWN_GOAL}x`,
      met: ratio <= BURST_SLOWDOWN_GOAL,
      note: `p99 outside the burst ${ms(k.outside.p99)} (${count(k.outside.n)})`,
    });
  }
  return rows;
}

export function openingDayRows(f: OpeningDayFigures): FigureRow[] {
  const goal = `p99 <= ${P99_GOAL_MS} ms, 0 errors`;
  const rows: FigureRow[] = [
    section(`Opening day: ${count(f.people)} people over ${f.minutes} min (per minute: ${f.perMinute.join(', ')}), ${MANAGERS} managers working the inbox`),
  ];
  for (const k of f.kinds) {
    const s = k.summary;
    rows.push({
      name: k.kind,
      value: s.n ? `${count(s.n)} answered; p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)}` : 'none answered',
      goal,
      met: s.n > 0 && s.p99 <= P99_GOAL_MS && k.errors === 0,
      note: [
        `${count(k.errors)} errors${k.messages.length ? `: ${k.messages.join('; ')}` : ''}`,
        `max ${ms(s.max)}`,
        ...(k.before && k.after ? [`p99 sent in the first minute ${ms(k.before.p99)} (${count(k.before.n)}), after it ${ms(k.after.p99)} (${count(k.after.n)})`] : []),
      ].join('; '),
    });
  }
  rows.push(...burstRows(f));
  rows.push({
    name: 'people through every step',
    value: `${count(f.finished)} of ${count(f.people)}`,
    goal: 'all',
    met: f.finished === f.people,
    note: `${count(f.applied)} applied; the run took ${f.loadSeconds.toFixed(0)} s; latest arrival started ${ms(f.maxLateMs)} late by the bench`,
  });
  if ('error' in f.draw) {
    rows.push({ name: 'every application drawn', value: 'failed', goal: 'every application drawn', met: false, note: f.draw.error.split('\n')[0]!.slice(0, 200) });
  } else {
    rows.push({
      name: 'every application drawn',
      value: `${count(f.draw.ranked)} of ${count(f.applied)} ranked`,
      goal: 'every application drawn',
      met: f.applied > 0 && f.draw.ranked === f.applied,
      note: `applications closed, then the draw: ${count(f.draw.entries)} entries in ${ms(f.draw.drawMs)} (Draw to view 'drawn')`,
    });
  }
  rows.push({ name: 'load average (1/5/15 min)', value: `start ${f.load.start}; peak 1-min ${f.load.peak.toFixed(2)}; end ${f.load.end}`, note: 'the whole machine, other benches included' });
  const seconds = Math.max(1, f.loadSeconds);
  rows.push({
    name: 'CPU over the load',
    value: Object.entries(f.cpuSeconds)
      .filter(([, s]) => s > 0)
      .sort(([, a], [, b]) => b - a)
      .map(([part, s]) => `${part} ${s.toFixed(0)} s (${((100 * s) / seconds).toFixed(0)}%)`)
      .join(', '),
    note: `user + system time of each process and its children (/proc) over ${f.loadSeconds.toFixed(0)} s; % of one core`,
  });
  rows.push({ name: 'restarts during the run', value: `API ${f.restarts.api}, worker ${f.restarts.worker}`, goal: 'none', met: f.restarts.api + f.restarts.worker === 0 });
  return rows;
}
