/**
 * The API's Prometheus metrics: requests by route pattern and status, their latency, and
 * the Temporal client's calls and failures. Served only on a port of its own (METRICS_PORT, off by
 * default), never on the web port, optionally behind a bearer token (METRICS_TOKEN); see
 * infra/production/README.md "Metrics and alerts" for the series and the alerts.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../infra/config';
import { temporalClientMetrics } from '../infra/temporal/connection';

export interface ApiMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route' | 'status'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ApiMetrics;
  }
}

/** The label of a request no route matched (unknown API paths, and the web app's own client-side routes). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds: from a cached lookup (a few ms) to an upload or a letter (seconds). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Counts every answer in the onResponse hook. The route label is the pattern the request matched
 * (`/api/LeaseUpApplication/getDetailsById/:applicationId`), never the URL: no id, token or personal
 * data reaches a label, and the series stay as many as the routes.
 */
export const metricsPlugin = fp(
  async (app) => {
    const registry = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const metrics: ApiMetrics = {
      registry,
      requests: new Counter({ name: 'portal_http_requests_total', help: 'HTTP requests answered by the API, by route pattern and status', labelNames, registers: [registry] }),
      duration: new Histogram({ name: 'portal_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern and status', labelNames, buckets: BUCKETS, registers: [registry] }),
    };
    // The outbox read at scrape time: a message waiting long means delivery is stuck (no worker, or the
    // mail server refusing), which the worker's own counters cannot show once it is down.
    const db = app.db;
    new Gauge({
      name: 'portal_notification_outbox_oldest_pending_seconds',
      help: 'Age of the oldest notification waiting in the outbox (0 when none waits)',
      registers: [registry],
      async collect() {
        try {
          const row = await db
            .selectFrom('notification_outbox')
            .select(sql<number>`coalesce(extract(epoch from now() - min(created_at)), 0)`.as('age'))
            .where('status', '=', 'pending')
            .executeTakeFirst();
          this.set(Number(row?.age ?? 0));
        } catch {
          // PostgreSQL unreachable: no value this scrape (the API's readiness says why).
        }
      },
    });
    registry.registerMetric(temporalClientMetrics.calls);
    registry.registerMetric(temporalClientMetrics.errors);
    registry.registerMetric(temporalClientMetrics.probes);
    app.decorate('metrics', metrics);
    app.addHook('onResponse', async (request, reply) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) };
      metrics.requests.inc(labels);
      metrics.duration.observe(labels, reply.elapsedTime / 1000);
    });
  },
  { name: 'metrics' },
);

export interface MetricsServer {
  /** `http://host:port/metrics` */
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on its own port, for Prometheus: the web port's Service and Ingress never reach it.
 * With a token, a scrape without `Authorization: Bearer <token>` gets 401. Adds the process's own
 * series (CPU, memory, event-loop lag) as `portal_api_*`.
 */
export async function startMetricsServer(registry: Registry, options: { port: number; host: string; token?: string }): Promise<MetricsServer> {
  collectDefaultMetrics({ register: registry, prefix: 'portal_api_' });
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = options.token ? digest(`Bearer ${options.token}`) : undefined;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (expected && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's kept-alive connection would hold the close open.
        server.closeAllConnections();
      }),
  };
}

/** The API's metrics endpoint as configured: none without METRICS_PORT. */
export function serveApiMetrics(registry: Registry, config: Pick<Config, 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_TOKEN'>): Promise<MetricsServer | undefined> {
  if (config.METRICS_PORT === undefined) return Promise.resolve(undefined);
  return startMetricsServer(registry, { port: config.METRICS_PORT, host: config.METRICS_HOST, token: config.METRICS_TOKEN });
}
