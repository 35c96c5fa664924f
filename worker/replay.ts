/**
 * The replay check before a deploy: downloads the histories of the workflows running on a
 * cluster (all, or a sample of each type) and replays them through the workflow code at hand, with
 * the worker's own workflow code choice and data converter. A history that the code would not
 * reproduce (a changed workflow without `patched()`) is reported with its workflow and the first
 * event the code disagreed with. The command line is worker/replay-check.ts (its options: worker/replay-args.ts).
 */
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { bundleWorkflows, workflowCode } from './create-worker';
import { dataConverter, firstLine, temporalConnectionOptions } from '../infra/temporal/connection';
import type { ReplayCheckOptions } from './replay-args';

type History = proto.temporal.api.history.v1.IHistory;

export interface ReplayFailure {
  workflowId: string;
  runId: string;
  workflowType: string;
  /** The first event the code disagreed with, when the SDK names it. */
  event?: { id: number; type: string };
  message: string;
}

export interface ReplayReport {
  listed: number;
  /** Per workflow type: how many were replayed and how many failed. */
  byType: Record<string, { replayed: number; failed: number }>;
  failures: ReplayFailure[];
  /** Listed but gone before their history could be read (deleted after retention). */
  missing: number;
}

interface Listed {
  workflowId: string;
  runId: string;
  workflowType: string;
}

/** A connection to the cluster made as the worker makes it (address, namespace, TLS, API key). */
export async function connectAsWorker(options: ReplayCheckOptions): Promise<Connection> {
  return Connection.connect(
    await temporalConnectionOptions({
      TEMPORAL_ADDRESS: options.address,
      TEMPORAL_NAMESPACE: options.namespace,
      TEMPORAL_TLS_CERT_PATH: options.tlsCertPath,
      TEMPORAL_TLS_KEY_PATH: options.tlsKeyPath,
      TEMPORAL_TLS_CA_PATH: options.tlsCaPath,
      TEMPORAL_API_KEY: options.apiKey,
      DATA_ENCRYPTION_KEY: options.dataEncryptionKey,
    }),
  );
}

/** Connects to the cluster as the worker does and replays. */
export async function runReplayCheck(options: ReplayCheckOptions, say: (line: string) => void = () => undefined): Promise<ReplayReport> {
  const keys = { DATA_ENCRYPTION_KEY: options.dataEncryptionKey, DATA_ENCRYPTION_KEYS_PREVIOUS: options.previousKeys };
  const connection = await connectAsWorker(options).catch((error: unknown) => {
    throw new Error(`cannot reach Temporal at ${options.address}: ${firstLine(error)}`, { cause: error });
  });
  try {
    const client = new Client({ connection, namespace: options.namespace, dataConverter: dataConverter(keys) });
    const chosen = await listWorkflows(client, options);
    say(`${chosen.listed} workflow(s) match; replaying ${chosen.workflows.length}`);
    const report: ReplayReport = { listed: chosen.listed, byType: {}, failures: [], missing: 0 };
    for (const w of chosen.workflows) report.byType[w.workflowType] ??= { replayed: 0, failed: 0 };
    if (chosen.workflows.length === 0) return report;

    // The replay worker asks for the next history only once the previous one is replayed, so the
    // result in hand is always that of the history last handed over.
    let current: { workflow: Listed; history: History } | undefined;
    const failed: (Listed & { history: History; message: string })[] = [];
    async function* histories() {
      for (const workflow of chosen.workflows) {
        let history: History;
        try {
          history = await client.workflow.getHandle(workflow.workflowId, workflow.runId).fetchHistory();
        } catch (error) {
          if ((error as { code?: number }).code === 5 || /not found/i.test(firstLine(error))) {
            report.missing++;
            continue;
          }
          throw error;
        }
        current = { workflow, history };
        yield { workflowId: workflow.workflowId, history };
      }
    }
    // The worker's choice of code (a bundle built ahead, or workflows/ bundled as the worker bundles
    // it), bundled once here for the replay and for locating each failure.
    const code = options.workflowsPath ? { workflowsPath: options.workflowsPath } : workflowCode({ WORKER_BUNDLE_PATH: options.bundlePath });
    const replayOptions: ReplayWorkerOptions = {
      ...(code.workflowsPath ? { workflowBundle: await bundleWorkflows({ path: code.workflowsPath, logger: QUIET }) } : { workflowBundle: code.workflowBundle }),
      dataConverter: dataConverter(keys),
      replayName: 'replay-check',
    };
    for await (const result of Worker.runReplayHistories(replayOptions, histories())) {
      const { workflow, history } = current!;
      const counts = report.byType[workflow.workflowType]!;
      counts.replayed++;
      if (!result.error) continue;
      counts.failed++;
      failed.push({ ...workflow, history, message: result.error.message });
    }
    for (const [n, f] of failed.entries()) {
      const event = n < options.maxLocated ? await locateDivergence(f.history, f.message, replayOptions) : undefined;
      report.failures.push({ workflowId: f.workflowId, runId: f.runId, workflowType: f.workflowType, event, message: nondeterminismMessage(f.message) });
    }
    return report;
  } finally {
    await connection.close();
  }
}


const QUIET = { trace() {}, debug() {}, info() {}, warn() {}, error: (message: string) => process.stderr.write(`${message}\n`), log() {} };

/** Every workflow the query lists, or a random sample of each type (reservoir sampling: one pass, any count). */
async function listWorkflows(client: Client, options: ReplayCheckOptions): Promise<{ listed: number; workflows: Listed[] }> {
  const byType = new Map<string, { seen: number; kept: Listed[] }>();
  let listed = 0;
  for await (const info of client.workflow.list({ query: options.query })) {
    listed++;
    const workflow = { workflowId: info.workflowId, runId: info.runId, workflowType: info.type };
    const group = byType.get(info.type) ?? { seen: 0, kept: [] };
    byType.set(info.type, group);
    group.seen++;
    const limit = options.samplePerType ?? Infinity;
    if (group.kept.length < limit) group.kept.push(workflow);
    else {
      const slot = Math.floor(Math.random() * group.seen);
      if (slot < limit) group.kept[slot] = workflow;
    }
  }
  const workflows = [...byType.keys()].sort().flatMap((type) => byType.get(type)!.kept);
  return { listed, workflows };
}

const EventType = proto.temporal.api.enums.v1.EventType;
type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

/** `EVENT_TYPE_MARKER_RECORDED` (or its number) as `MarkerRecorded`, the name the Web UI and the SDK show. */
export function eventTypeName(type: unknown): string {
  const name = typeof type === 'number' ? EventType[type] : String(type);
  if (!name) return String(type);
  return name
    .replace(/^EVENT_TYPE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
}

/** The SDK's own explanation, without its wrapping (`Failure { failure: Some(Failure { message: "..." ...`). */
export function nondeterminismMessage(message: string): string {
  const inner = /message: "((?:[^"\\]|\\.)*)"/.exec(message);
  return (inner ? inner[1]!.replace(/\\"/g, '"') : firstLine(message)).trim();
}

/** Names an event may be recognised by in the SDK's message: activity, timer, patch, child workflow, signal. */
function namesOf(event: HistoryEvent): string[] {
  const names = [
    event.activityTaskScheduledEventAttributes?.activityId,
    event.activityTaskScheduledEventAttributes?.activityType?.name,
    event.timerStartedEventAttributes?.timerId,
    event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId,
    event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name,
    event.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName,
  ];
  for (const payload of event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads ?? []) {
    try {
      names.push((JSON.parse(Buffer.from(payload.data ?? []).toString()) as { id?: string }).id);
    } catch {}
  }
  return names.filter((n): n is string => Boolean(n));
}

/**
 * The first event of `history` that the code disagrees with. The SDK's core names it in many of its
 * messages (`HistoryEvent(id: N, Type)`); when it does not (a patch marker without its `patched()`
 * call, an activity id or type that differs), the history is replayed cut after each workflow task
 * (a cut history compares the commands of every task but its last) to find the first task whose
 * commands differ; the event is the one of that task's commands the message names, else its first.
 */
export async function locateDivergence(history: History, message: string, options: ReplayWorkerOptions): Promise<{ id: number; type: string } | undefined> {
  const named = /HistoryEvent\(id: (\d+), (\w+)\)/.exec(message);
  if (named) return { id: Number(named[1]), type: named[2]! };
  const events = history.events ?? [];
  const started = events.flatMap((e, i) => (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED ? [i] : []));
  if (started.length === 0) return undefined;
  // Cut j ends at the start of task j + 2: the commands of tasks 1 .. j + 1 are compared.
  const cuts = started.slice(1).map((end, j) => ({ workflowId: `cut-${j}`, history: { events: events.slice(0, end + 1) } }));
  let task = started.length - 1;
  for await (const result of Worker.runReplayHistories({ ...options, replayName: 'replay-check-locate' }, cuts)) {
    if (!result.error) continue;
    task = Number(result.workflowId.slice('cut-'.length));
    break;
  }
  const completed = events.findIndex((e, i) => i > started[task]! && e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  if (completed < 0) return undefined;
  const next = events.findIndex((e, i) => i > completed && e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED);
  const produced = events.slice(completed + 1, next < 0 ? undefined : next);
  const inner = nondeterminismMessage(message);
  const mentioned = produced.find((e) => namesOf(e).some((n) => (n.length >= 3 ? inner.includes(n) : inner.includes(`'${n}'`))));
  const event = mentioned ?? produced[0] ?? events[completed]!;
  return { id: Number(event.eventId), type: eventTypeName(event.eventType) };
}

/** The report as printed: counts per type, then each failure with its workflow and event. */
export function formatReplayReport(report: ReplayReport, options: Pick<ReplayCheckOptions, 'address' | 'namespace' | 'query' | 'samplePerType'>): string {
  const lines = [`replay:check ${options.address} namespace ${options.namespace}, query: ${options.query}${options.samplePerType ? `, sample ${options.samplePerType} per type` : ''}`];
  const types = Object.keys(report.byType).sort();
  if (types.length === 0) lines.push('no workflow matches the query: nothing to replay.');
  const width = Math.max(0, ...types.map((t) => t.length));
  for (const type of types) {
    const { replayed, failed } = report.byType[type]!;
    lines.push(`  ${type.padEnd(width)}  ${replayed} replayed, ${failed === 0 ? 'all deterministic' : `${failed} FAILED`}`);
  }
  if (report.missing > 0) lines.push(`  ${report.missing} listed workflow(s) had no history any more (deleted after retention): skipped`);
  for (const f of report.failures) {
    const event = f.event ? `first nondeterministic event ${f.event.id} (${f.event.type})` : 'the SDK named no event';
    lines.push(`FAILED ${f.workflowType} workflow ${f.workflowId} (run ${f.runId}): ${event}`);
    lines.push(`  ${f.message}`);
  }
  const replayed = types.reduce((n, t) => n + report.byType[t]!.replayed, 0);
  lines.push(
    report.failures.length === 0
      ? `RESULT: ${replayed} workflow(s) replayed through this code: deploy may proceed.`
      : `RESULT: ${report.failures.length} of ${replayed} workflow(s) do NOT replay through this code: do not deploy (guard the change with patched()).`,
  );
  return lines.join('\n');
}
