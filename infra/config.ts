import { z } from 'zod';
import { checkSmsSettings, SmsSettingsShape } from './notifications/config';

/**
 * Configuration from the environment, parsed once at start. The same code runs on the embedded
 * defaults (infra/start.ts fills these in) and against a Temporal cluster, managed PostgreSQL and S3.
 */
const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const postgresUrl = z
  .string()
  .url('must be a URL like postgres://user:password@host:5432/db')
  .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://');

const hostPort = z
  .string()
  .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'must be host:port, for example localhost:7233');

const base64Key = z
  .string()
  .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded in base64 (openssl rand -base64 32)');

export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),

    DATABASE_URL: postgresUrl,
    PG_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
    PG_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    PG_SSL: bool.default(false),
    // Hot statements marked `prepared(...)` (infra/db/database.ts) are planned once per connection.
    // Behind PgBouncer in transaction mode, that needs its max_prepared_statements (1.21 or later), or false here.
    PG_PREPARED_STATEMENTS: bool.default(true),

    TEMPORAL_ADDRESS: hostPort,
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('housing-portal'),
    TEMPORAL_TLS_CERT_PATH: z.string().optional(),
    TEMPORAL_TLS_KEY_PATH: z.string().optional(),
    TEMPORAL_TLS_CA_PATH: z.string().optional(),
    TEMPORAL_API_KEY: z.string().optional(),

    BLOB_DRIVER: z.enum(['local', 's3']).default('local'),
    BLOB_DIR: z.string().default('.data/blobs'),
    S3_ENDPOINT: z.string().url('must be a URL like https://s3.amazonaws.com').optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(true),
    /** Server-side encryption asked of S3 on every upload (on top of the portal's own encryption). */
    S3_SSE: z.enum(['AES256', 'aws:kms', 'none']).default('AES256'),
    S3_SSE_KMS_KEY_ID: z.string().optional(),

    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    JWT_PRIVATE_KEY: z.string().optional(),
    JWT_PUBLIC_KEY: z.string().optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
    /**
     * How long an API process trusts its last check that an access token's session is live (0: check
     * every request). Revocations in the same process apply at once; other replicas see them within
     * this time (api/services/session-cache.ts).
     */
    SESSION_CHECK_CACHE_SECONDS: z.coerce.number().int().min(0).max(900).default(30),
    /** Password hashes run at once per API process (default: half the cores, at least 1); the rest queue (api/services/password-work.ts). */
    PASSWORD_CHECKS_AT_ONCE: z.coerce.number().int().min(1).max(256).optional(),
    /** How long a sign-in may wait for a password check before it is answered 429 `serverBusy`. */
    PASSWORD_CHECK_MAX_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),

    /** Key for personal data at rest and for the Temporal payload codec. */
    DATA_ENCRYPTION_KEY: base64Key,
    /** Keys used before the current one, comma separated: they only decrypt, until `npm run keys:rotate`. */
    DATA_ENCRYPTION_KEYS_PREVIOUS: z
      .string()
      .default('')
      .refine((v) => v.split(',').map((k) => k.trim()).filter(Boolean).every((k) => Buffer.from(k, 'base64').length === 32), 'must be 32-byte keys in base64, comma separated'),

    /**
     * Addresses (or CIDR ranges) of reverse proxies whose X-Forwarded-For is believed, comma
     * separated. None by default: the client address is the socket's, so no client can choose the
     * address its rate limits count against.
     */
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .transform((v) => v.split(',').map((p) => p.trim()).filter(Boolean))
      .refine((list) => list.every((p) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(p) || ['loopback', 'linklocal', 'uniquelocal'].includes(p)), 'must be IP addresses or CIDR ranges, comma separated'),
    /** Where rate-limit counters live: this process's memory, or PostgreSQL, shared by every API replica. */
    RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('postgres'),
    /** How long an API call waits for Temporal before checking that it is alive; dead or stalled gives 503. */
    TEMPORAL_PROBE_AFTER_MS: z.coerce.number().int().min(50).max(60_000).default(400),
    TEMPORAL_PROBE_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(800),

    /**
     * The worker's V8 heap (MiB): `npm start` and the production manifest start the worker with
     * `--max-old-space-size` of this; the workflow thread gets the same limit. The sticky cache is
     * sized from the heap the process really has (worker/sizing.ts).
     */
    WORKER_HEAP_MB: z.coerce.number().int().min(64).max(65_536).default(512),
    /**
     * A workflow bundle built ahead (`bundleWorkflowCode`), loaded instead of bundling at start: a
     * faster start without webpack's few hundred MiB at start-up. Unset: bundled from workflows/.
     */
    WORKER_BUNDLE_PATH: z.string().min(1).optional(),
    /** Workflows kept in the worker's sticky cache; unset: as many as fit the heap (worker/sizing.ts). */
    WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(2).max(100_000).optional(),
    /**
     * The heap each cached workflow is budgeted (KiB): a fresh lease-up application weighs about
     * 70 KiB of heap (tests/helpers/worker-memory-probe.ts, 200 cases; 1.0 MiB before workflows/
     * was preloaded once and shared, worker/create-worker.ts), one further along more.
     */
    WORKER_CACHED_WORKFLOW_KB: z.coerce.number().int().min(16).max(65_536).default(256),
    /** Heap kept aside from the cache for the SDK, the bundle and the largest replays (MiB). */
    WORKER_HEAP_RESERVE_MB: z.coerce.number().int().min(16).max(65_536).default(128),
    /**
     * Above this share of the machine's (or container's cgroup) memory the worker takes no new
     * activities until usage falls: it slows instead of dying (SDK resource-based slot supplier;
     * workflow tasks are bounded by the sticky cache and WORKER_WORKFLOW_TASK_SLOTS instead).
     */
    WORKER_TARGET_MEMORY_USAGE: z.coerce.number().min(0.1).max(0.95).default(0.8),
    /** The same for CPU; at 1 (default) a CPU at 100% still holds activities to their always-given quarter of WORKER_ACTIVITY_TASK_SLOTS. */
    WORKER_TARGET_CPU_USAGE: z.coerce.number().min(0.1).max(1).default(1),
    /**
     * Workflow tasks the worker runs at once, fixed (never more than it caches). Workflow tasks are
     * CPU work on one thread, so more slots only queue inside the worker (worker/sizing.ts).
     */
    WORKER_WORKFLOW_TASK_SLOTS: z.coerce.number().int().min(2).max(1_000).default(8),
    /** Most activities (and, as many again, local activities) at once: mostly waiting on PostgreSQL, whose pool they share. */
    WORKER_ACTIVITY_TASK_SLOTS: z.coerce.number().int().min(1).max(1_000).default(16),

    /**
     * Text translation: a LibreTranslate-compatible server (`POST {url}/translate`).
     * Unset: the Translator routes answer 503 and the web shows no translate buttons.
     */
    TRANSLATE_URL: z.string().url('must be a URL like http://localhost:5000').optional(),
    /** The server's API key, when it asks for one (sent as `api_key`). */
    TRANSLATE_API_KEY: z.string().min(1).optional(),
    /** How long one call to the translation server may take before the text is shown untranslated. */
    TRANSLATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8_000),
    /** Translation calls per signed-in user per minute (texts served from the catalogue or memory count too). */
    TRANSLATE_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(60),

    /** "Download my data": the most document bytes one archive may hold (as the uploads' recorded sizes add up); over it the download is refused with 409. */
    MY_DATA_EXPORT_MAX_BYTES: z.coerce.number().int().min(1).max(1_000_000_000_000).default(2_000_000_000),
    /** "Download my data": downloads per household in any hour (every API replica counts together). */
    MY_DATA_EXPORTS_PER_HOUR: z.coerce.number().int().min(1).max(1_000).default(5),

    /**
     * Optional language model for the intake assistant: an OpenAI-compatible chat
     * completions endpoint that reads free answers into the form's values (each still checked by the
     * form and confirmed by the resident). Unset: the assistant runs without a model.
     */
    INTAKE_MODEL_URL: z.string().url('must be a URL like http://localhost:8000/v1').optional(),
    INTAKE_MODEL: z.string().min(1).default('default'),
    INTAKE_MODEL_API_KEY: z.string().min(1).optional(),
    INTAKE_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),

    WEB_DIST: z.string().default('web/dist'),
    /** Origin of the Temporal Web UI allowed to call the codec endpoint. */
    TEMPORAL_UI_ORIGIN: z.string().url().default('http://localhost:8233'),

    // The dashboard's outside world (infra/feeds/). A feed without its URL is not
    // fetched and its card says it is unavailable: the embedded default uses no network.
    /** National Weather Service API base, e.g. https://api.weather.gov */
    FEED_NWS_URL: z.string().url('must be a URL like https://api.weather.gov').optional(),
    /** The NWS asks every caller to name its application and a contact in the User-Agent. */
    FEED_NWS_USER_AGENT: z.string().min(1).default('housing-portal (affordable-housing resident portal)'),
    /** AirNow API base, e.g. https://www.airnowapi.org, and its key (needed with the URL). */
    FEED_AIRNOW_URL: z.string().url('must be a URL like https://www.airnowapi.org').optional(),
    FEED_AIRNOW_API_KEY: z.string().min(1).optional(),
    /** The ZIP code whose current air quality is shown (10007: City Hall). */
    FEED_AIRNOW_ZIP: z.string().regex(/^\d{5}$/, 'must be a 5-digit ZIP code').default('10007'),
    /** MTA GTFS-realtime base, e.g. https://api-endpoint.mta.info/Dataservice/mtagtfsfeeds; key optional. */
    FEED_MTA_URL: z.string().url('must be a URL like https://api-endpoint.mta.info/Dataservice/mtagtfsfeeds').optional(),
    FEED_MTA_API_KEY: z.string().min(1).optional(),
    /** An RSS 2.0 or Atom feed of New York news. */
    FEED_NEWS_URL: z.string().url('must be the URL of an RSS or Atom feed').optional(),
    /** How often each source is fetched (seconds), and how long one fetch may take (ms). */
    FEED_WEATHER_REFRESH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    FEED_AIRNOW_REFRESH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1800),
    FEED_MTA_REFRESH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    FEED_NEWS_REFRESH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    FEED_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Rounded browser locations whose forecast the server keeps (when full, others get New York City's; six hours unasked frees a place). */
    FEED_WEATHER_MAX_POINTS: z.coerce.number().int().min(0).max(1_000).default(25),
    // Metrics, off unless set; infra/production/README.md "Metrics and alerts".
    /** The API's Prometheus endpoint (GET /metrics) on this port of its own, never on PORT. Unset: no endpoint. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Address the API's metrics port listens on: this machine only by default; 0.0.0.0 in a pod, for the Prometheus scraper. */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** When set, a scrape of the API's metrics must send `Authorization: Bearer <METRICS_TOKEN>`. */
    METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    /**
     * After SIGTERM the API answers /readyz with 503 for this long before it stops taking requests, so
     * a load balancer takes the replica out before its port closes (0: stop at once).
     */
    API_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
    /**
     * Worker Deployment Versioning: the worker registers as build WORKER_BUILD_ID of deployment
     * WORKER_DEPLOYMENT_NAME (README "Rolling upgrade"). The build is the worker's own setting (the
     * API shares the configuration and has none), so the worker checks it at start
     * (worker/create-worker.ts).
     */
    WORKER_VERSIONING: bool.default(false),
    WORKER_DEPLOYMENT_NAME: z.string().min(1).default('housing-portal'),
    WORKER_BUILD_ID: z.string().min(1).optional(),
    /** host:port of the worker's Prometheus endpoint (the Temporal SDK's metrics and the activity failure counts). Unset: none. */
    WORKER_METRICS_ADDRESS: hostPort.optional(),
    /** Text messages: the provider, its account and sender (infra/notifications/config.ts). */
    ...SmsSettingsShape,
    /**
     * Test-only: a file where every secret handed out is written (infra/secret-ledger.ts), for the
     * log scan of the test run. A deployment must never switch it on, so it is refused outside NODE_ENV=test.
     */
    PORTAL_SECRET_LEDGER: z.string().min(1).optional(),
  })
  .superRefine((c, ctx) => {
    checkSmsSettings(c, ctx);
    if (c.PORTAL_SECRET_LEDGER && c.NODE_ENV !== 'test') {
      ctx.addIssue({ code: 'custom', path: ['PORTAL_SECRET_LEDGER'], message: 'is for the test run only: it is refused unless NODE_ENV=test (it writes every secret handed out to a file)' });
    }
    if (c.BLOB_DRIVER === 's3' && !c.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when BLOB_DRIVER=s3' });
    }
    if (!c.JWT_SECRET && !(c.JWT_PRIVATE_KEY && c.JWT_PUBLIC_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required (or JWT_PRIVATE_KEY and JWT_PUBLIC_KEY)' });
    }
    if (c.FEED_AIRNOW_URL && !c.FEED_AIRNOW_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['FEED_AIRNOW_API_KEY'], message: 'is required with FEED_AIRNOW_URL' });
    }
    if (c.METRICS_PORT !== undefined && c.METRICS_PORT === c.PORT) {
      ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT: metrics are never served on the web port' });
    }
    if (Boolean(c.TEMPORAL_TLS_CERT_PATH) !== Boolean(c.TEMPORAL_TLS_KEY_PATH)) {
      ctx.addIssue({ code: 'custom', path: ['TEMPORAL_TLS_KEY_PATH'], message: 'TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH go together' });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; the error is one line naming each bad variable and what is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.') || 'configuration';
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return `${name} ${message}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/**
 * Entry points call this: prints one line and exits on a bad configuration or an unreachable
 * service instead of a stack trace.
 */
export async function runMain(name: string, main: () => Promise<void>, cleanUp?: () => Promise<unknown>): Promise<void> {
  try {
    await main();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: ${message.split('\n')[0]}\n`);
    await cleanUp?.().catch(() => undefined);
    process.exit(1);
  }
}
