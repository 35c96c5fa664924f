/**
 * Where each part of `npm run start:cluster` listens, from the environment (defaults beside `npm
 * start`'s so the two never meet: its PostgreSQL is on 5433 and its Temporal on 7233). Every port is
 * below 32768: Temporal stores membership ports as smallint, and the kernel's ephemeral range starts
 * there.
 */
export interface ClusterPorts {
  /** HAProxy: the portal's one public address. */
  web: number;
  /** The two API replicas behind it (PORT+10, PORT+11). */
  api: [number, number];
  postgres: number;
  /** Temporal frontend gRPC; history, matching and worker take the next ports (infra/production/temporal-server.yaml). */
  temporal: number;
  temporalMembership: number;
  temporalMetrics: number;
  /** The Temporal Web UI. */
  temporalUi: number;
  s3: number;
  s3Console: number;
  smtp: number;
  /** The local SMS provider (Twilio's format, infra/cluster/sms-sink.ts). */
  sms: number;
  /** Prometheus endpoints (CLUSTER_METRICS_PORT and the next five): API replicas, workers, Temporal, HAProxy. */
  apiMetrics: [number, number];
  workerMetrics: [number, number];
  haproxyMetrics: number;
}

export function clusterPorts(env: NodeJS.ProcessEnv): ClusterPorts {
  const port = (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > 32_767) throw new Error(`${name} must be a port below 32768`);
    return value;
  };
  const web = port('PORT', 3000);
  const metrics = port('CLUSTER_METRICS_PORT', 9464);
  return {
    web,
    api: [web + 10, web + 11],
    postgres: port('PG_PORT', 5434),
    temporal: port('TEMPORAL_PORT', 7333),
    temporalMembership: port('TEMPORAL_MEMBERSHIP_PORT', 6933),
    temporalMetrics: port('TEMPORAL_METRICS_PORT', metrics + 4),
    temporalUi: port('TEMPORAL_UI_PORT', 8234),
    s3: port('S3_PORT', 9000),
    s3Console: port('S3_CONSOLE_PORT', 9001),
    smtp: port('SMTP_PORT', 2525),
    sms: port('SMS_SINK_PORT', 2526),
    apiMetrics: [metrics, metrics + 1],
    workerMetrics: [metrics + 2, metrics + 3],
    haproxyMetrics: metrics + 5,
  };
}
