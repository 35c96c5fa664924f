import { createBlobStore } from '../infra/blobs';
import { loadConfig, runMain } from '../infra/config';
import { assertDatabaseReachable, createDb } from '../infra/db/database';
import { keyRingFromConfig } from '../infra/crypto';
import { useDataKeys } from '../infra/data-keys';
import { migrateToLatest } from '../infra/db/migrate';
import { resealAssetsAndDeclaredIncomes, resealIncomes } from '../infra/key-rotation';
import { createTemporalClient } from '../infra/temporal/connection';
import { buildApp } from './app';
import { serveApiMetrics, type MetricsServer } from './metrics';

// The API entry point: serves /api and the built web app; scales apart from the worker.
await runMain('api', async () => {
  const config = loadConfig();
  const db = createDb(config);
  await assertDatabaseReachable(db, config.DATABASE_URL);
  // Migrations are idempotent and take kysely's lock, so several replicas may start at once.
  await migrateToLatest(db);
  // Income, asset and declared-income rows from before encryption, or under a key rotated out, are sealed now (cheap when none).
  useDataKeys(keyRingFromConfig(config));
  await resealIncomes(db);
  await resealAssetsAndDeclaredIncomes(db);
  // Lazy: the API starts and answers (503 for workflow actions) while Temporal is down or restarting.
  const temporal = await createTemporalClient(config, { lazy: true });
  const blobs = createBlobStore(config);
  const app = await buildApp({ config, db, temporal, blobs });

  const served: { metrics?: MetricsServer } = {};
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    if (config.API_DRAIN_SECONDS > 0) {
      // Requests keep being served while the load balancer's health checks see 503 and take this
      // replica out; only then does the port close.
      app.lifecycle.draining = true;
      app.log.info({ signal, seconds: config.API_DRAIN_SECONDS }, 'api draining');
      await new Promise((done) => setTimeout(done, config.API_DRAIN_SECONDS * 1000));
    }
    app.log.info({ signal }, 'api stopping');
    await app.close();
    await served.metrics?.close();
    await temporal.connection.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Prometheus scrapes GET /metrics on METRICS_PORT, apart from the web port (none when unset).
  served.metrics = await serveApiMetrics(app.metrics.registry, config);
  if (served.metrics) app.log.info({ port: config.METRICS_PORT, host: config.METRICS_HOST, token: Boolean(config.METRICS_TOKEN) }, 'metrics served');
});
