import { readFile } from 'node:fs/promises';
import { Client, Connection } from '@temporalio/client';
import { Counter } from 'prom-client';
import type { Config } from '../config';
import { EncryptionCodec } from './codec';

type TemporalConfig = Pick<
  Config,
  | 'TEMPORAL_ADDRESS'
  | 'TEMPORAL_NAMESPACE'
  | 'TEMPORAL_TLS_CERT_PATH'
  | 'TEMPORAL_TLS_KEY_PATH'
  | 'TEMPORAL_TLS_CA_PATH'
  | 'TEMPORAL_API_KEY'
  | 'DATA_ENCRYPTION_KEY'
>;

/** Connection options shared by the API's client and the worker (TLS and API key from config). */
export async function temporalConnectionOptions(config: TemporalConfig) {
  const mtls = config.TEMPORAL_TLS_CERT_PATH && config.TEMPORAL_TLS_KEY_PATH;
  const tls =
    mtls || config.TEMPORAL_TLS_CA_PATH || config.TEMPORAL_API_KEY
      ? {
          ...(mtls
            ? {
                clientCertPair: {
                  crt: await readFile(config.TEMPORAL_TLS_CERT_PATH!),
                  key: await readFile(config.TEMPORAL_TLS_KEY_PATH!),
                },
              }
            : {}),
          ...(config.TEMPORAL_TLS_CA_PATH ? { serverRootCACertificate: await readFile(config.TEMPORAL_TLS_CA_PATH) } : {}),
        }
      : undefined;
  return {
    address: config.TEMPORAL_ADDRESS,
    tls,
    apiKey: config.TEMPORAL_API_KEY,
    metadata: config.TEMPORAL_API_KEY ? { 'temporal-namespace': config.TEMPORAL_NAMESPACE } : undefined,
    connectTimeout: '10 seconds',
  };
}

/** The data converter both sides use: every payload encrypted with DATA_ENCRYPTION_KEY. */
export function dataConverter(config: Pick<Config, 'DATA_ENCRYPTION_KEY'> & { DATA_ENCRYPTION_KEYS_PREVIOUS?: string }) {
  return { payloadCodecs: [EncryptionCodec.fromBase64(config.DATA_ENCRYPTION_KEY, config.DATA_ENCRYPTION_KEYS_PREVIOUS ?? '')] };
}

/** gRPC status names by code, for the `code` label of failed calls. */
const GRPC_CODES = ['OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED'];

/**
 * Calls of this process's Temporal client and those that failed, by workflow-service method (a fixed
 * set of names) and gRPC status. In no registry of their own: the API's metrics registry
 * (api/metrics.ts) takes them. UNAVAILABLE and DEADLINE_EXCEEDED mean Temporal did not answer (the
 * guard below fails a dead or stalled server's calls as UNAVAILABLE); NOT_FOUND or ALREADY_EXISTS are
 * answers (a finished case, a second start refused).
 */
export const temporalClientMetrics = {
  calls: new Counter({ name: 'portal_temporal_client_calls_total', help: 'Calls of the Temporal workflow service made by this process', labelNames: ['method'] as const, registers: [] }),
  errors: new Counter({ name: 'portal_temporal_client_errors_total', help: 'Failed calls of the Temporal workflow service, by gRPC status', labelNames: ['method', 'code'] as const, registers: [] }),
  /** The guard's checks that Temporal is alive, by outcome: each 503 it gives follows an unanswered one, or falls in the moment one is remembered. */
  probes: new Counter({ name: 'portal_temporal_probes_total', help: 'Checks by the Temporal call guard that the server answers, by outcome', labelNames: ['outcome'] as const, registers: [] }),
};

function grpcCodeName(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return GRPC_CODES[code] ?? String(code);
  return (error as { name?: unknown } | null)?.name === 'AbortError' ? 'CANCELLED' : 'UNKNOWN';
}

/** Thrown instead of waiting when Temporal does not answer: the API answers 503 with Retry-After. */
export class TemporalUnavailableError extends Error {
  override name = 'TemporalUnavailableError';
  /** Looks like gRPC's UNAVAILABLE to code that reads status codes. */
  readonly code = 14;
  readonly details = 'Temporal is not answering';
  constructor() {
    super('Temporal is not answering');
  }
}

export interface CallGuardOptions {
  /** A call still pending after this long makes the guard check that Temporal is alive. */
  probeAfterMs: number;
  /** How long that check may take; no answer means Temporal is down or stalled. */
  probeTimeoutMs: number;
  /** The clock of the moment a failed check is remembered (tests move it; deadlines use the real one). */
  now?: () => number;
}

/**
 * Every call of the connection's workflow service, guarded (503 within 2 s): a call that
 * has not answered after `probeAfterMs` triggers a quick `getSystemInfo` with a deadline of
 * `probeTimeoutMs`. If Temporal answers, the call is only slow (an Update waiting for its worker)
 * and goes on; if not, the call is cancelled and fails with TemporalUnavailableError. Without this,
 * the SDK retries an unreachable server for about 20 s, and a stalled one forever. A failed check is
 * remembered for a moment so a burst of calls fails at once.
 */
export function guardTemporalCalls(connection: Connection, options: CallGuardOptions): void {
  const raw = connection.workflowService;
  const now = options.now ?? Date.now;
  let deadUntil = 0;
  let probing: Promise<boolean> | null = null;
  const probeOnce = async (): Promise<boolean> => {
    for (let attempt = 0; attempt < MAX_PROBES; attempt++) {
      const stall = measureStall();
      const answered = await connection.withDeadline(Date.now() + options.probeTimeoutMs, () => raw.getSystemInfo({})).then(
        () => true,
        () => false,
      );
      const stalledMs = stall.stop();
      temporalClientMetrics.probes.inc({ outcome: answered ? 'answered' : 'unanswered' });
      if (answered) return true;
      // A deadline missed while this process itself was stalled (a long synchronous task, such as a
      // letter rendered by an in-process worker) says nothing about Temporal: ask again.
      if (stalledMs < options.probeTimeoutMs / 2) break;
    }
    deadUntil = now() + options.probeTimeoutMs;
    return false;
  };
  const alive = () =>
    (probing ??= probeOnce().finally(() => {
      probing = null;
    }));

  const guarded: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(raw)) {
    if (typeof method !== 'function') continue;
    const counted = (result: Promise<unknown>) => {
      temporalClientMetrics.calls.inc({ method: name });
      return result.catch((error: unknown) => {
        temporalClientMetrics.errors.inc({ method: name, code: grpcCodeName(error) });
        throw error;
      });
    };
    const guardedCall = (request: unknown) => {
      if (now() < deadUntil) return Promise.reject(new TemporalUnavailableError());
      const abort = new AbortController();
      const call = connection.withAbortSignal(abort.signal, () => (method as (r: unknown) => Promise<unknown>).call(raw, request));
      let timer: NodeJS.Timeout | undefined;
      const watchdog = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          void alive().then((ok) => {
            if (ok) return;
            abort.abort();
            reject(new TemporalUnavailableError());
          });
        }, options.probeAfterMs);
      });
      return Promise.race([call, watchdog]).finally(() => clearTimeout(timer));
    };
    guarded[name] = (request: unknown) => counted(guardedCall(request));
  }
  (connection as { workflowService: unknown }).workflowService = guarded;
}

/** A stalled probe is asked again this many times in all before Temporal is called down. */
const MAX_PROBES = 3;
const STALL_TICK_MS = 25;

/**
 * How long this process's event loop was held up while a probe was out: the longest gap between
 * ticks of a short timer, beyond the tick itself. Timers that are overdue fire in the order they were
 * due, so the tick scheduled before a probe's deadline has recorded the stall by the time the
 * missed deadline is seen.
 */
function measureStall(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - STALL_TICK_MS);
    last = now;
  }, STALL_TICK_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last - STALL_TICK_MS);
    },
  };
}

/**
 * The API's Temporal client. `lazy`: the API starts and serves what needs no workflow while Temporal
 * is down (its calls answer 503, /readyz says so) and connects when it comes back; otherwise one clear
 * line when the server cannot be reached.
 */
export async function createTemporalClient(
  config: TemporalConfig & Partial<Pick<Config, 'TEMPORAL_PROBE_AFTER_MS' | 'TEMPORAL_PROBE_TIMEOUT_MS'>>,
  { lazy = false }: { lazy?: boolean } = {},
): Promise<Client> {
  let connection: Connection;
  const connectionOptions = await temporalConnectionOptions(config);
  if (lazy) connection = Connection.lazy(connectionOptions);
  else {
    try {
      connection = await Connection.connect(connectionOptions);
    } catch (error) {
      throw new Error(`cannot reach Temporal at TEMPORAL_ADDRESS (${config.TEMPORAL_ADDRESS}): ${firstLine(error)}`, { cause: error });
    }
  }
  guardTemporalCalls(connection, { probeAfterMs: config.TEMPORAL_PROBE_AFTER_MS ?? 400, probeTimeoutMs: config.TEMPORAL_PROBE_TIMEOUT_MS ?? 800 });
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, dataConverter: dataConverter(config) });
}

/** Whether an error (or one of its causes) says Temporal did not answer: unreachable, stalled or timed out. */
export function isTemporalUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof TemporalUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    const isGrpc = typeof (e as { details?: unknown }).details === 'string' && typeof code === 'number';
    // UNAVAILABLE (14) and DEADLINE_EXCEEDED (4) from gRPC.
    if (isGrpc && (code === 14 || code === 4)) return true;
    if ((e as { name?: string }).name === 'WorkflowUpdateRPCTimeoutOrCancelledError') return true;
  }
  return false;
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
