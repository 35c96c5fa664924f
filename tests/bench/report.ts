/** Turns the measured figures into the table's rows, each beside its goal and the bare figure. */
import type { PageFigure } from '../../web/build/initial-js-report';
import type { ApplyFigures, LagFigures } from './phases/apply';
import type { BareFigures } from './phases/bare';
import type { CaseFigures } from './phases/cases';
import type { Breakdown } from './phases/lag-breakdown';
import { DASHBOARD_GOAL_MS, type DashboardFigures } from './phases/dashboard';
import type { ListFigure } from './phases/lists';
import type { DrawFigures, InviteFigures } from './phases/lottery';
import { percentile } from './stats';
import { bytes, count, ms, msDelta, section, type FigureRow } from './table';

/** The API's and PostgreSQL's CPU per application against a fixed budget. */
const APPLY_CPU_BUDGET_MS = 3;
/** The Temporal server's and the worker's CPU per application against the bare start's (a first-come case's start and first task). */
const APPLY_CPU_OVER_BARE = 1.15;

/** One row per process of the apply's CPU per application, each beside its goal (the figures of the row above). */
function applyCpuRows(apply: { cpuSeconds: Record<string, number>; applications: number }, bare: BareFigures | undefined): FigureRow[] {
  const per = (seconds: number | undefined, runs: number) => (seconds === undefined || runs === 0 ? Number.NaN : (seconds * 1000) / runs);
  const applied = (part: string) => per(apply.cpuSeconds[part], apply.applications);
  const budget = (part: string): FigureRow => {
    const value = applied(part);
    return { name: `${part} CPU per application`, value: ms(value), goal: `<= ${APPLY_CPU_BUDGET_MS} ms`, met: Number.isFinite(value) ? value <= APPLY_CPU_BUDGET_MS : false };
  };
  // The portal's worker runs the case; the bare worker runs the bare workflow.
  const overBare = (part: string, barePart: string): FigureRow => {
    const value = applied(part);
    const base = bare ? per(bare.cpuSeconds[barePart], bare.workflowIds.length) : Number.NaN;
    const ratio = value / base;
    return {
      name: `${part} CPU per application`,
      value: `${ms(value)} (${ratio.toFixed(2)}x bare)`,
      goal: `<= ${APPLY_CPU_OVER_BARE}x bare start`,
      bare: bare ? `${ms(base)} per start (${barePart})` : 'failed',
      met: Number.isFinite(ratio) ? ratio <= APPLY_CPU_OVER_BARE : false,
    };
  };
  return [budget('API'), budget('PostgreSQL'), overBare('Temporal server', 'Temporal server'), overBare('worker', 'bare worker')];
}

export function applyRows(
  apply: ApplyFigures & { errors: string[]; cpuSeconds: Record<string, number>; applications: number },
  lag: LagFigures,
  bare: BareFigures | undefined,
  concurrency: number,
): FigureRow[] {
  const ratio = apply.perSecond / (bare?.startsPerSecond ?? Number.NaN);
  const perRun = (cpuSeconds: Record<string, number>, runs: number) =>
    Object.entries(cpuSeconds)
      .filter(([, seconds]) => seconds > 0)
      .sort(([, a], [, b]) => b - a)
      .map(([part, seconds]) => `${part} ${ms((seconds * 1000) / Math.max(1, runs))}`)
      .join(', ');
  return [
    section('Applying'),
    {
      name: 'apply throughput',
      value: `${apply.perSecond.toFixed(1)}/s (${ratio.toFixed(2)}x bare)`,
      goal: '>= 0.9x bare start',
      bare: bare ? `${bare.startsPerSecond.toFixed(1)} starts/s` : 'failed',
      met: apply.failures === 0 && bare ? ratio >= 0.9 : false,
      note: `${concurrency} in flight; request p50 ${ms(apply.requestMs.p50)}, p99 ${ms(apply.requestMs.p99)}${apply.failures ? `; ${apply.failures} failed: ${apply.errors.join(', ')}` : ''}`,
    },
    {
      name: 'CPU per application while applying',
      value: perRun(apply.cpuSeconds, apply.applications),
      bare: bare ? `per start: ${perRun(bare.cpuSeconds, bare.workflowIds.length)}` : '',
      note: 'user + system time of each process and its children (/proc), over the run until every row was projected and every workflow had run its first task (bare: until every workflow answered a Query), per application',
    },
    ...applyCpuRows(apply, bare),
    {
      name: `read-model lag at ${lag.offeredPerSecond} applies/s`,
      value: `p50 ${ms(lag.lagMs.p50)}, p99 ${ms(lag.lagMs.p99)}, max ${ms(lag.lagMs.max)}`,
      goal: '< 2 s',
      met: lag.lagMs.n > 0 && lag.unprojected === 0 && lag.failures === 0 ? lag.lagMs.max < 2000 : false,
      note: `${lag.lagMs.n} applied at ${lag.achievedPerSecond.toFixed(1)}/s${lag.unprojected ? `; ${lag.unprojected} never projected` : ''}${lag.failures ? `; ${lag.failures} failed: ${lag.errors.join(', ')}` : ''}`,
    },
  ];
}

export function caseRows(cases: CaseFigures, measuredBare: BareFigures | undefined, rssPerCase: number, invited: number): FigureRow[] {
  const p = (xs: number[], q: number) => percentile(xs, q);
  // Without the bare figures (their phase failed) the differences read n/a.
  const bare: BareFigures = measuredBare ?? { startsPerSecond: Number.NaN, updateMs: [], queryMs: [], historyEvents: Number.NaN, updatesEach: 0, rssPerWorkflow: Number.NaN, workflowIds: [], cpuSeconds: {} };
  return [
    section('One case'),
    {
      name: 'action added over bare Update, p50',
      value: `${msDelta(p(cases.actionMs, 50) - p(bare.updateMs, 50))} (${ms(p(cases.actionMs, 50))})`,
      goal: '<= 8 ms',
      bare: ms(p(bare.updateMs, 50)),
      met: cases.actionMs.length ? p(cases.actionMs, 50) - p(bare.updateMs, 50) <= 8 : false,
      note: `UpdateInfo over HTTP, ${cases.actionMs.length} one at a time${cases.failures.length ? `; failures: ${cases.failures.join(', ')}` : ''}`,
    },
    {
      name: 'action added over bare Update, p99',
      value: `${msDelta(p(cases.actionMs, 99) - p(bare.updateMs, 99))} (${ms(p(cases.actionMs, 99))})`,
      goal: '<= 20 ms',
      bare: ms(p(bare.updateMs, 99)),
      met: cases.actionMs.length ? p(cases.actionMs, 99) - p(bare.updateMs, 99) <= 20 : false,
    },
    {
      name: 'of which the workflow: the same Update sent straight, p50',
      value: `${msDelta(p(cases.directUpdateMs, 50) - p(bare.updateMs, 50))} (${ms(p(cases.directUpdateMs, 50))})`,
      bare: ms(p(bare.updateMs, 50)),
      note: "client to workflow, no API; the rest of the action is the API (HTTP, session, access, and writing the answered view)",
    },
    {
      name: 'query added over bare Query, p50',
      value: `${msDelta(p(cases.queryMs, 50) - p(bare.queryMs, 50))} (${ms(p(cases.queryMs, 50))})`,
      goal: '<= 4 ms',
      bare: ms(p(bare.queryMs, 50)),
      met: cases.queryMs.length ? p(cases.queryMs, 50) - p(bare.queryMs, 50) <= 4 : false,
      note: 'application detail over HTTP (the access check and the workflow Query sent together)',
    },
    {
      name: 'history events per application',
      value: count(cases.historyEvents),
      bare: `${count(bare.historyEvents)} (start + ${bare.updatesEach} Updates)`,
      note: `an invited case after ${cases.actionsEach} UpdateInfo`,
    },
    {
      name: 'worker RSS per cached workflow',
      value: bytes(rssPerCase),
      goal: '<= 1.5 MB',
      bare: bytes(bare.rssPerWorkflow),
      met: Number.isFinite(rssPerCase) ? rssPerCase <= 1.5 * 1024 * 1024 : null,
      note: `worker RSS growth over ${count(invited)} invited cases / their number`,
    },
  ];
}

/** Every manager list page p95 <= 20 ms at 100,000; first page <= 50 ms, applicant's list <= 20 ms. */
export function listRows(size: number, figures: ListFigure[]): FigureRow[] {
  const rows: FigureRow[] = [section(`Lists at ${count(size)} applications in one organisation`)];
  for (const f of figures) {
    const goal = 20;
    if (f.error) {
      rows.push({ name: f.name, value: 'failed', goal: `p95 <= ${goal} ms`, met: false, note: f.error });
      continue;
    }
    const shape = f.paged ? `${f.rows} rows a page` : `not paged: ${count(f.rows)} rows, ${bytes(f.bytes)} an answer`;
    rows.push({
      name: `${f.name}, first page`,
      value: `p50 ${ms(f.first.p50)}, p95 ${ms(f.first.p95)}`,
      goal: f.name.startsWith('manager') || f.name.startsWith('task') ? `p95 <= ${goal} ms (50)` : `p95 <= ${goal} ms`,
      met: f.first.p95 <= goal,
      note: `${shape}; ${f.first.n} requests`,
    });
    if (f.deep) {
      rows.push({ name: `${f.name}, page ${f.deepPage}`, value: `p50 ${ms(f.deep.p50)}, p95 ${ms(f.deep.p95)}`, goal: `p95 <= ${goal} ms`, met: f.deep.p95 <= goal, note: `${f.deep.n} requests` });
    }
  }
  return rows;
}

export function dashboardRows(f: DashboardFigures): FigureRow[] {
  const goal = `p95 <= ${DASHBOARD_GOAL_MS} ms`;
  if (f.error) return [section('Dashboard'), { name: 'dashboard, every feed source hanging', value: 'failed', goal, met: false, note: f.error }];
  return [
    section('Dashboard'),
    {
      name: 'dashboard, every feed source hanging',
      value: `p50 ${ms(f.summary.p50)}, p95 ${ms(f.summary.p95)}`,
      goal,
      met: f.summary.p95 <= DASHBOARD_GOAL_MS,
      note: `${f.summary.n} requests; ${f.sourceRequests} source requests made by then, none answered (cards from memory)`,
    },
  ];
}

export function lotteryRows(applications: number, drawn: DrawFigures, invited: InviteFigures, asked: number, lotteryHistory: number): FigureRow[] {
  return [
    section(`Lottery at ${count(applications)} applications`),
    { name: 'draw end to end', value: ms(drawn.drawMs), goal: '<= 10 s', met: drawn.drawMs <= 10_000, note: `${count(drawn.entries)} ranked; Draw to view 'drawn'; slowest request ${ms(drawn.maxRequestMs)}${drawn.refused ? `; ${drawn.refused} requests answered 5xx` : ''}` },
    {
      name: `invite ${count(asked)} households`,
      value: `${count(invited.started)} cases started in ${ms(invited.startedMs)}`,
      goal: `all ${count(asked)} started, progress shown`,
      met: invited.started + invited.skipped >= asked && invited.progress.length > 1,
      note: `invitations counted in ${ms(invited.invitedMs)}; progress seen: ${invited.progress.join(' ')}${invited.skipped ? `; ${invited.skipped} skipped` : ''}`,
    },
    {
      name: 'slowest request while inviting',
      value: ms(invited.maxRequestMs),
      goal: '<= 1 s',
      met: invited.maxRequestMs <= 1000 && invited.refused === 0,
      note: `the manager's lottery view polled every 250 ms${invited.refused ? `; ${invited.refused} answered 5xx` : ''}`,
    },
    { name: 'opportunity workflow history', value: `${count(lotteryHistory)} events`, goal: '< 10,000', met: lotteryHistory < 10_000, note: 'current run, after the draw and the invitations' },
  ];
}

export function webRows(pages: PageFigure[], budget: number): FigureRow[] {
  return [
    section('Web'),
    ...pages.map((p) => ({ name: `initial JS ${p.route}`, value: `${bytes(p.gzipBytes)} gzip`, goal: `<= ${bytes(budget)}`, met: p.gzipBytes <= budget, note: `${p.files.length} files` })),
  ];
}

/** Where an application's time goes before its row is projected (means over sampled histories of the lag run). */
export function breakdownRows(b: Breakdown): FigureRow[] {
  const per = b.perApplication;
  return [
    section('Where the lag goes (means from workflow histories of the lag run)'),
    {
      name: 'Temporal tasks per application',
      value: `${per.workflowTasks.toFixed(1)} workflow tasks, ${per.activityTasks.toFixed(1)} activity tasks, ${per.localActivities.toFixed(1)} local activities`,
      note: 'from start to its first task (no action taken); does not move with load',
    },
    {
      name: 'workflow start to its first task done',
      value: `p50 ${ms(b.firstTaskMs.p50)}, max ${ms(b.firstTaskMs.max)}`,
      note: `${b.firstTaskMs.n} sampled; the row is projected by the apply, so this is how far the worker trailed`,
    },
    ...b.segments.map((s) => ({ name: s.name, value: ms(s.meanMs), note: `${s.count} seen` })),
  ];
}
