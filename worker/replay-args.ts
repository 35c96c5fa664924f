/**
 * The command line of `npm run replay:check` (worker/replay-check.ts): its options, read from the
 * arguments first and then from the environment the worker itself reads.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { firstLine } from '../infra/temporal/connection';

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
  /** Failures whose first nondeterministic event is found (each costs a replay per workflow task); the rest give the SDK's message only. */
  maxLocated: number;
}

export const DEFAULT_QUERY = 'ExecutionStatus = "Running"';
const DEFAULT_MAX_LOCATED = 20;

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
  --max-located <N>          find the first nondeterministic event of at most N failures (default: ${DEFAULT_MAX_LOCATED})

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
        'max-located': { type: 'string' },
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
  const maxLocated = Number(values['max-located'] ?? DEFAULT_MAX_LOCATED);
  if (!(Number.isInteger(maxLocated) && maxLocated >= 0)) throw new UsageError('--max-located must be a whole number');
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
    maxLocated,
  };
}

const absolute = (path: string | undefined) => (path ? resolve(path) : undefined);
