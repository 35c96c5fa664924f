/**
 * The replay check before a deploy (issue 20): downloads the histories of the workflows running on a
 * cluster (all, or a sample of each type) and replays them through the workflow code at hand, with
 * the worker's own workflow code choice and data converter. A history that the code would not
 * reproduce (a changed workflow without `patched()`) is reported with its workflow and the first
 * event the code disagreed with. The command line is infra/temporal/replay-check.ts.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { bundleWorkflows, workflowCode } from '../../worker/create-worker';
import { dataConverter, firstLine, temporalConnectionOptions } from './connection';

type History = proto.temporal.api.history.v1.IHistory;

export interface ReplayCheckOptions {
  address: string;
  namespace: string;
  /** Visibility query choosing the workflows; running ones by default. */
  query: string;
  /** At most this many workflows of each type, chosen at random among those listed; unset: all. */
  samplePerType?: number;
  tlsCertPath?: string;
  tlsKeyPath?: string;
  tlsCaPath?: string;
  apiKey?: string;
  /** The payload codec's keys: replay decodes workflow inputs, signals and activity results. */
  dataEncryptionKey: string;
  previousKeys: string;
  /** A workflow bundle built ahead (as the worker's WORKER_BUNDLE_PATH); unset: workflows/ bundled now. */
  bundlePath?: string;
  /** Tests only: another workflows module replayed instead of the product's (a deliberately changed one). */
  workflowsPath?: string;
}

export const DEFAULT_QUERY = 'ExecutionStatus = "Running"';

export const USAGE = `usage: npm run replay:check -- --address <host:port> --namespace <namespace> [options]

Replays the histories of running workflows through this checkout's workflow code; exits 1 naming
each workflow that does not replay and the first event its code disagrees with.

  --address <host:port>      Temporal frontend (default: TEMPORAL_ADDRESS)
  --namespace <namespace>    (default: TEMPORAL_NAMESPACE, else "default")
  --query <visibility query> which workflows (default: ${DEFAULT_QUERY})
  --sample <N>               at most N workflows of each type, chosen at random (default: all)
  --tls-cert <file> --tls-key <file>
                             mTLS client pair (default: TEMPORAL_TLS_CERT_PATH / TEMPORAL_TLS_KEY_PATH)
  --tls-ca <file>            CA of the frontend's certificate (default: TEMPORAL_TLS_CA_PATH)
  --api-key <key>            Temporal Cloud API key (default: TEMPORAL_API_KEY; prefer the variable)
  --bundle <file>            workflow bundle built ahead (default: WORKER_BUNDLE_PATH, else workflows/)

The payload key comes from DATA_ENCRYPTION_KEY (and DATA_ENCRYPTION_KEYS_PREVIOUS), as the worker's.`;

export class UsageError extends Error {
  override name = 'UsageError';
}

const HOST_PORT = /^[A-Za-z0-9.-]+:\d{1,5}$/;

/** Command line first, then the environment the worker itself reads. */
export function parseReplayCheckArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ReplayCheckOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      options: {
        address: { type: 'string' },
        namespace: { type: 'string' },
        query: { type: 'string' },
        sample: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'tls-ca': { type: 'string' },
        'api-key': { type: 'string' },
        bundle: { type: 'string' },
        'workflows-path': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${firstLine(error)}\n\n${USAGE}`);
  }
  if (values.help) throw new UsageError(USAGE);
  const address = values.address ?? env.TEMPORAL_ADDRESS;
  if (!address || !HOST_PORT.test(address)) throw new UsageError(`--address must be host:port, for example localhost:7233\n\n${USAGE}`);
  const sample = values.sample === undefined ? undefined : Number(values.sample);
  if (sample !== undefined && !(Number.isInteger(sample) && sample >= 1)) throw new UsageError('--sample must be a whole number of at least 1');
  const tlsCertPath = values['tls-cert'] ?? env.TEMPORAL_TLS_CERT_PATH;
  const tlsKeyPath = values['tls-key'] ?? env.TEMPORAL_TLS_KEY_PATH;
  if (Boolean(tlsCertPath) !== Boolean(tlsKeyPath)) throw new UsageError('--tls-cert and --tls-key go together');
  const dataEncryptionKey = env.DATA_ENCRYPTION_KEY ?? '';
  if (Buffer.from(dataEncryptionKey, 'base64').length !== 32) {
    throw new UsageError('DATA_ENCRYPTION_KEY must be set to the key the worker uses (32 bytes, base64): replay decodes the payloads of each history');
  }
  if (values.bundle && values['workflows-path']) throw new UsageError('--bundle and --workflows-path exclude each other');
  return {
    address,
    namespace: values.namespace ?? env.TEMPORAL_NAMESPACE ?? 'default',
    query: values.query ?? DEFAULT_QUERY,
    samplePerType: sample,
    tlsCertPath,
    tlsKeyPath,
    tlsCaPath: values['tls-ca'] ?? env.TEMPORAL_TLS_CA_PATH,
    apiKey: values['api-key'] ?? env.TEMPORAL_API_KEY,
    dataEncryptionKey,
    previousKeys: env.DATA_ENCRYPTION_KEYS_PREVIOUS ?? '',
    bundlePath: values['workflows-path'] ? undefined : absolute(values.bundle ?? env.WORKER_BUNDLE_PATH),
    workflowsPath: absolute(values['workflows-path']),
  };
}

const absolute = (path: string | undefined) => (path ? resolve(path) : undefined);

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

/** Connects to the cluster as the worker does (address, namespace, TLS, API key) and replays. */
export async function runReplayCheck(options: ReplayCheckOptions, say: (line: string) => void = () => undefined): Promise<ReplayReport> {
  const keys = { DATA_ENCRYPTION_KEY: options.dataEncryptionKey, DATA_ENCRYPTION_KEYS_PREVIOUS: options.previousKeys };
  const connection = await Connection.connect(
    await temporalConnectionOptions({
      TEMPORAL_ADDRESS: options.address,
      TEMPORAL_NAMESPACE: options.namespace,
      TEMPORAL_TLS_CERT_PATH: options.tlsCertPath,
      TEMPORAL_TLS_KEY_PATH: options.tlsKeyPath,
      TEMPORAL_TLS_CA_PATH: options.tlsCaPath,
      TEMPORAL_API_KEY: options.apiKey,
      DATA_ENCRYPTION_KEY: options.dataEncryptionKey,
    }),
  ).catch((error: unknown) => {
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
      const event = n < MAX_LOCATED ? await locateDivergence(f.history, f.message, replayOptions) : undefined;
      report.failures.push({ workflowId: f.workflowId, runId: f.runId, workflowType: f.workflowType, event, message: nondeterminismMessage(f.message) });
    }
    return report;
  } finally {
    await connection.close();
  }
}

/** Failures located event by event (each takes a replay per workflow task); the rest give the SDK's message only. */
const MAX_LOCATED = 20;

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
