/**
 * `npm run bench`: the speed and memory figures from one run on a stack of its own (free
 * ports, real PostgreSQL, Temporal dev server, MinIO, the worker and the API as processes), printed
 * as one table beside the goals and the bare Temporal client's figures. Not a test: nothing here
 * fails a build; figures move with the machine's load, printed at the top and the bottom.
 * Sizes: `npm run bench -- --help`.
 */
import { ensureLotteries } from '../../worker/lotteries';
import { parseArgs, USAGE, type BenchOptions } from './args';
import { Api, mintSessions } from './http';
import { cpuByPart, cpuSpent, readProcesses } from './cpu';
import { loadNow, machineFacts, rssOf } from './machine';
import { applyThroughput, readModelLag, waitFirstTasks, waitProjected, type Applicant } from './phases/apply';
import { lagBreakdown } from './phases/lag-breakdown';
import { measureBare } from './phases/bare';
import { measureCases } from './phases/cases';
import { hangingSources, timeDashboard } from './phases/dashboard';
import { listSpecs, timeList } from './phases/lists';
import { draw, invite, waitForClosed } from './phases/lottery';
import { applyRows, breakdownRows, caseRows, dashboardRows, listRows, lotteryRows, webRows } from './report';
import { growLottery, insertHouseholds, seedOpportunities } from './seed';
import { startBenchStack, type BenchStack } from './stack';
import { formatTable, type FigureRow } from './table';
import { measureCluster, measureShape, shapeRows, type ShapeFigures } from './phases/cluster';
import { measurePublicPages, publicPageRows } from './phases/public-pages';
import { OPENING_DAY_ENV, openingDay, openingDayRows } from './phases/opening-day';

const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);

async function phase<T>(name: string, rows: FigureRow[], run: () => Promise<T>): Promise<T | undefined> {
  const start = performance.now();
  say(`${name}...`);
  try {
    const out = await run();
    say(`${name} done in ${((performance.now() - start) / 1000).toFixed(1)}s (load ${loadNow()})`);
    return out;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    say(`${name} FAILED: ${message}`);
    rows.push({ name, value: 'failed', met: false, note: message.split('\n')[0]!.slice(0, 200) });
    return undefined;
  }
}

async function lists(stack: BenchStack, api: Api, lotteryId: string, size: number, samples: number, rows: FigureRow[]) {
  const auth = { manager: await api.login('Manager'), applicant: await api.login('User') };
  const figures = [];
  for (const spec of listSpecs(lotteryId)) figures.push(await timeList(api, auth[spec.who], spec, samples));
  rows.push(...listRows(size, figures));
  void stack;
}

async function main(options: BenchOptions): Promise<void> {
  console.log(`housing portal bench, ${new Date().toISOString()}\n${machineFacts()}\n`);
  const rows: FigureRow[] = [];
  if (!options.skipWeb) {
    const { measureWeb, INITIAL_JS_BUDGET_BYTES } = await import('./phases/web');
    const pages = await phase('production build (initial JS)', rows, measureWeb);
    if (pages) rows.push(...webRows(pages, INITIAL_JS_BUDGET_BYTES));
  }

  // Every feed of the dashboard points at a server that never answers (the dashboard phase).
  const sources = await hangingSources();
  const stack = await startBenchStack(sources.env);
  const api = new Api(stack.baseUrl);
  try {
    const now = new Date();
    const seed = await seedOpportunities(stack.db, now);

    const sizes = options.smallApplications < options.applications ? [options.smallApplications, options.applications] : [options.applications];
    for (const size of sizes) {
      await phase(`seeding ${size} applications`, rows, () => growLottery(stack.db, seed, size, now));
      await phase(`lists at ${size}`, rows, () => lists(stack, api, seed.lotteryId, size, options.samples, rows));
    }
    // The lottery's workflow, started as the worker starts those of seeded lotteries, once its list
    // is whole: its deadline has passed and it has no mail grace period, so it closes applications
    // and freezes the list at once, and a row seeded after that would change the frozen list.
    await ensureLotteries(stack.db, stack.temporal, stack.config.TEMPORAL_TASK_QUEUE);

    const pages = await phase('public pages', rows, () => measurePublicPages(stack.baseUrl, seed.firstComeId));
    if (pages) rows.push(...publicPageRows(pages));

    const dashboard = await phase('dashboard with hanging feed sources', rows, async () => timeDashboard(api, await api.login('User'), options.samples, sources));
    if (dashboard) rows.push(...dashboardRows(dashboard));

    // CPU time of each part of the stack (tests/bench/cpu.ts): where the machine goes per application.
    const cpuNow = async () =>
      cpuByPart(
        await readProcesses(),
        { worker: stack.worker.pid(), 'bare worker': stack.bare.pid(), API: stack.api.pid(), PostgreSQL: stack.services.pids.postgres, 'the bench itself': process.pid },
        { under: process.pid, names: { temporal: 'Temporal server' } },
      );
    const bare = await phase('bare Temporal client', rows, () => measureBare(stack, { starts: options.applies, concurrency: options.concurrency, samples: options.samples }, cpuNow));

    const lagCount = options.rate * options.lagSeconds;
    const households = await insertHouseholds(stack.db, 'bench-apply', 0, options.applies + lagCount);
    const tokens = await mintSessions(stack.db, stack.config.JWT_SECRET!, households.map((h) => h.userId));
    const applicants: Applicant[] = households.map((h) => ({ userId: h.userId, householdSize: h.size, authorization: tokens.get(h.userId)! }));
    const throughput = await phase('apply throughput', rows, async () => {
      const cpuBefore = await cpuNow();
      const figures = await applyThroughput(api, seed.firstComeId, applicants.slice(0, options.applies), options.concurrency);
      // The lag run starts on a worker that has caught up with these (each workflow has run its first task).
      const ids = applicants.slice(0, options.applies).map((a) => a.userId);
      await waitProjected(stack.db, seed.firstComeId, ids, 300_000);
      const behind = await waitFirstTasks(stack.db, stack.temporal, seed.firstComeId, ids);
      if (behind > 0) say(`${behind} of ${ids.length} workflows had not run their first task after 300 s: the CPU figures miss their work`);
      return { ...figures, cpuSeconds: cpuSpent(cpuBefore, await cpuNow()), applications: options.applies };
    });
    const lagApplicants = applicants.slice(options.applies);
    const lag = await phase(`read-model lag at ${options.rate}/s`, rows, () => readModelLag(api, stack.db, seed.firstComeId, lagApplicants, options.rate));
    if (throughput && lag) rows.push(...applyRows(throughput, lag, bare, options.concurrency));
    const breakdown = await phase('where the lag goes', rows, async () => {
      const behind = await waitFirstTasks(stack.db, stack.temporal, seed.firstComeId, lagApplicants.map((a) => a.userId));
      if (behind > 0) say(`${behind} of ${lagApplicants.length} lag-run workflows had not run their first task after 300 s`);
      const sample = await stack.db
        .selectFrom('applications')
        .select('workflow_id')
        .where('opportunity_id', '=', seed.firstComeId)
        .where('applicant_user_id', 'in', lagApplicants.map((a) => a.userId))
        .orderBy('applied_at')
        .execute();
      const step = Math.max(1, Math.floor(sample.length / 20));
      return lagBreakdown(stack.temporal, sample.filter((_, i) => i % step === 0).map((r) => r.workflow_id));
    });
    if (breakdown) rows.push(...breakdownRows(breakdown));

    await phase('lottery', rows, async () => {
      await waitForClosed(stack.db, seed.lotteryId);
      const manager = await api.login('Manager');
      const drawn = await draw(api, manager, seed.lotteryId);
      say(`drawn in ${(drawn.drawMs / 1000).toFixed(1)}s`);
      const rssBefore = await rssOf(stack.worker.pid());
      const invited = await invite(api, stack.db, manager, seed.lotteryId, options.invite);
      const rssAfter = await rssOf(stack.worker.pid());
      say(`${invited.started} cases started in ${(invited.startedMs / 1000).toFixed(1)}s`);
      const cases = await measureCases(api, stack.db, stack.temporal, stack.config.JWT_SECRET!, seed.lotteryId, options.samples);
      rows.push(...lotteryRows(seed.applications, drawn, invited, options.invite, cases.lotteryHistory));
      rows.push(...caseRows(cases, bare, (rssAfter - rssBefore) / Math.max(1, invited.started), invited.started));
    });

    const workerRss = await rssOf(stack.worker.pid());
    rows.push({ section: 'Processes', name: '', value: '' });
    rows.push({ name: 'portal worker RSS at the end', value: `${(workerRss / 1024 / 1024).toFixed(0)} MB`, note: `restarts: ${stack.worker.crashes.length}${stack.worker.crashes.length ? ` (${stack.worker.crashes.join('; ')})` : ''}`, met: stack.worker.crashes.length === 0 });
    rows.push({ name: 'API restarts', value: String(stack.api.crashes.length), met: stack.api.crashes.length === 0 });
  } finally {
    console.log(`\n${formatTable(rows)}\n`);
    console.log(`load average at the end (1/5/15 min): ${loadNow()}`);
    console.log('Other work on this machine moves every figure; compare each with the bare figure of the same run.');
    await stack.close(options.keep);
    await sources.close();
  }
}

/** `--cluster`: the same work on each shape in turn, one stack at a time so neither slows the other. */
async function shapes(options: BenchOptions): Promise<void> {
  console.log(`housing portal bench (shapes), ${new Date().toISOString()}\n${machineFacts()}\n`);
  const rows: FigureRow[] = [];
  const work = { count: options.applies, concurrency: options.concurrency, samples: options.samples };
  const stack = await startBenchStack();
  let dev: ShapeFigures | undefined;
  try {
    const seed = await seedOpportunities(stack.db, new Date());
    const cpuNow = async () =>
      cpuByPart(await readProcesses(), { worker: stack.worker.pid(), API: stack.api.pid(), PostgreSQL: stack.services.pids.postgres, 'the bench itself': process.pid }, { under: process.pid, names: { temporal: 'Temporal server' } });
    dev = await phase('dev-server shape', rows, () =>
      measureShape('dev', { api: new Api(stack.baseUrl), db: stack.db, temporal: stack.temporal, jwtSecret: stack.config.JWT_SECRET!, opportunityId: seed.firstComeId, cpuNow }, { ...work, tag: 'bench-shape' }),
    );
  } finally {
    await stack.close(options.keep);
  }
  const cluster = await phase('cluster shape', rows, () => measureCluster(work, say));
  rows.push(...shapeRows(dev, cluster, options.concurrency));
  console.log(`\n${formatTable(rows)}\n`);
  console.log(`load average at the end (1/5/15 min): ${loadNow()}`);
}

/** `--public`: only the public pages beside a bare server, on the bench's stack. */
async function publicOnly(options: BenchOptions): Promise<void> {
  console.log(`housing portal bench (public pages), ${new Date().toISOString()}\n${machineFacts()}\n`);
  const rows: FigureRow[] = [];
  const stack = await startBenchStack();
  try {
    const seed = await seedOpportunities(stack.db, new Date());
    const pages = await phase('public pages', rows, () => measurePublicPages(stack.baseUrl, seed.firstComeId));
    if (pages) rows.push(...publicPageRows(pages));
  } finally {
    await stack.close(options.keep);
  }
  console.log(`\n${formatTable(rows)}\n`);
  console.log(`load average at the end (1/5/15 min): ${loadNow()}`);
}

/** `--opening-day`: people applying to one lottery while managers work the inbox, then the draw, on the bench's stack. */
async function openingDayOnly(options: BenchOptions): Promise<void> {
  console.log(`housing portal bench (opening day), ${new Date().toISOString()}\n${machineFacts()}\n`);
  const rows: FigureRow[] = [];
  const stack = await startBenchStack(OPENING_DAY_ENV);
  try {
    const figures = await phase('opening day', rows, () => openingDay(stack, { people: options.people, minutes: options.minutes }, say));
    if (figures) rows.push(...openingDayRows(figures));
  } finally {
    console.log(`\n${formatTable(rows)}\n`);
    console.log(`load average at the end (1/5/15 min): ${loadNow()}`);
    await stack.close(options.keep);
  }
}

let options: BenchOptions;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
} else if (options.cluster) {
  await shapes(options);
  process.exit(0);
} else if (options.publicPages) {
  await publicOnly(options);
  process.exit(0);
} else if (options.openingDay) {
  await openingDayOnly(options);
  process.exit(0);
} else {
  await main(options);
  // The Temporal client's native parts keep the event loop alive after the stack is down.
  process.exit(0);
}
