import { getHeapStatistics } from 'node:v8';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { createBlobStore } from '../infra/blobs';
import { loadConfig, runMain } from '../infra/config';
import { assertDatabaseReachable, createDb } from '../infra/db/database';
import { createLogger } from '../infra/logger';
import { createTransports, loadNotificationConfig, startDeliveryLoop } from '../infra/notifications';
import { createTemporalClient } from '../infra/temporal/connection';
import { createPortalWorker } from './create-worker';
import { ensureLotteries } from './lotteries';
import { ensureRecertificationSweep } from './recertification-sweep';
import { ensureListingAlertDigests } from './listing-alert-digests';
import { ensureRetentionSchedule } from '../infra/temporal/retention-schedule';
import { workerTelemetry } from './metrics';
import { HEAP_LIMIT_SLACK_MB } from './sizing';

// The worker entry point: runs workflows and activities; scales apart from the API.
await runMain('worker', async () => {
  const config = loadConfig();
  const logger = createLogger(config, 'worker');
  // The SDK's own logs go through pino too, so the worker writes one structured log stream.
  Runtime.install({
    logger: new DefaultLogger(sdkLevel(config.LOG_LEVEL), ({ level, message, meta }) => {
      const method = level === 'TRACE' ? 'trace' : level === 'DEBUG' ? 'debug' : level === 'WARN' ? 'warn' : level === 'ERROR' ? 'error' : 'info';
      logger[method]({ ...meta, sdk: true }, message);
    }),
    // The SDK's metrics and the activity counts on WORKER_METRICS_ADDRESS (worker/metrics.ts).
    telemetryOptions: workerTelemetry(config),
  });
  if (config.WORKER_METRICS_ADDRESS) logger.info({ address: config.WORKER_METRICS_ADDRESS }, 'metrics served');
  const db = createDb(config);
  await assertDatabaseReachable(db, config.DATABASE_URL);
  const blobs = createBlobStore(config);
  const { worker, connection } = await createPortalWorker(config, { db, blobs });
  const heapMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
  logger.info({ heapMb, maxCachedWorkflows: worker.options.maxCachedWorkflows }, 'worker sized');
  if (heapMb < config.WORKER_HEAP_MB || heapMb > config.WORKER_HEAP_MB + HEAP_LIMIT_SLACK_MB) {
    logger.warn({ heapMb, WORKER_HEAP_MB: config.WORKER_HEAP_MB }, 'the worker was not started with --max-old-space-size=WORKER_HEAP_MB; its cache is sized from the heap it has');
  }
  // Sends the notification outbox (OTP, links, notices): SMTP when SMTP_URL is set, else .data/mail/*.eml;
  // texts through the SMS provider when SMS_PROVIDER=twilio, else .data/sms/*.txt.
  const notifications = loadNotificationConfig();
  const delivery = startDeliveryLoop(
    { db, transports: createTransports(notifications), context: { baseUrl: notifications.PUBLIC_BASE_URL }, logger },
    notifications.NOTIFICATION_POLL_MS,
  );

  // Annual cycles must open (and their notices go out) even for tenants who never sign in.
  const client = await createTemporalClient(config);
  try {
    await ensureRecertificationSweep(client, config.TEMPORAL_TASK_QUEUE);
  } catch (error) {
    logger.warn({ err: error }, 'recertification sweep not started; annual cycles open when a tenant reads their status');
  }
  // Weekly listing-alert digests go out whether or not anyone signs in.
  try {
    await ensureListingAlertDigests(client, config.TEMPORAL_TASK_QUEUE);
  } catch (error) {
    logger.warn({ err: error }, 'listing alert digests not started; they start at the next worker start');
  }
  // Personal data of long-closed applications is removed on a daily schedule (organisation's retention period).
  try {
    await ensureRetentionSchedule(client, config.TEMPORAL_TASK_QUEUE);
  } catch (error) {
    logger.warn({ err: error }, 'retention schedule not created; it is created at the next worker start');
  }
  try {
    const started = await ensureLotteries(db, client, config.TEMPORAL_TASK_QUEUE);
    if (started > 0) logger.info({ started }, 'lottery workflows started');
  } catch (error) {
    logger.warn({ err: error }, 'lottery workflows not started; they start at the next worker start');
  } finally {
    await client.connection.close();
  }

  // Worker.run() shuts down gracefully on SIGINT/SIGTERM: in-flight activities finish first.
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker started');
  try {
    await worker.run();
  } finally {
    await delivery.stop();
    await connection.close();
    await db.destroy();
    logger.info('worker stopped');
  }
});

function sdkLevel(level: string): LogLevel {
  switch (level) {
    case 'trace':
      return 'TRACE';
    case 'debug':
      return 'DEBUG';
    case 'info':
      return 'INFO';
    case 'warn':
      return 'WARN';
    default:
      return 'ERROR';
  }
}
