/**
 * The environment of the cluster's API replicas and workers: the production configuration itself
 * (infra/production/config.yaml) with only addresses and secrets replaced by this machine's. The
 * names replaced are listed here, so a reader sees at a glance that nothing else differs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { embeddedPostgresUrl } from '../embedded';
import { readLocalSecrets } from '../local-secrets';
import type { ClusterPorts } from './ports';
import { productionSettings } from './production-config';

/** Settings of the production config that point outside this machine and are left out here (the cluster uses no network). */
export const OUTSIDE_ADDRESSES = ['FEED_NWS_URL', 'FEED_AIRNOW_URL', 'FEED_MTA_URL', 'FEED_NEWS_URL', 'S3_ENDPOINT'] as const;

export interface MachineSecrets {
  JWT_SECRET: string;
  DATA_ENCRYPTION_KEY: string;
  DATA_ENCRYPTION_KEYS_PREVIOUS: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
}

/**
 * The local SMS provider's account: derived from this machine's JWT secret, so every API replica,
 * worker and the sink agree on it without another secret to keep.
 */
export function localSmsAccount(jwtSecret: string): { sid: string; token: string } {
  const digest = (label: string) => createHash('sha256').update(`${label}:${jwtSecret}`).digest('hex').slice(0, 32);
  return { sid: `AC${digest('sms-sink-account')}`, token: digest('sms-sink-token') };
}

/** Addresses and secrets of this machine: the only values the cluster sets over the production config. */
export function machineSettings(ports: ClusterPorts, urls: { database: string; smtp: string }, secrets: MachineSecrets, dataDir: string): Record<string, string> {
  const sms = localSmsAccount(secrets.JWT_SECRET);
  return {
    ...secrets,
    DATABASE_URL: urls.database,
    PG_SSL: 'false', // loopback
    TEMPORAL_ADDRESS: `127.0.0.1:${ports.temporal}`,
    S3_ENDPOINT: `http://127.0.0.1:${ports.s3}`,
    S3_FORCE_PATH_STYLE: 'true', // MinIO serves buckets by path
    SMTP_URL: urls.smtp,
    PUBLIC_BASE_URL: `http://localhost:${ports.web}`,
    SMS_DIR: join(dataDir, 'sms'),
    // Texts go through the provider adapter, to the local server speaking its format (infra/cluster/sms-sink.ts).
    SMS_PROVIDER: 'twilio',
    TWILIO_API_URL: `http://127.0.0.1:${ports.sms}`,
    TWILIO_ACCOUNT_SID: sms.sid,
    TWILIO_AUTH_TOKEN: sms.token,
    TWILIO_FROM: '+15005550006',
    DATA_DIR: dataDir,
    TRUSTED_PROXIES: '127.0.0.1', // HAProxy
    HOST: '127.0.0.1',
    METRICS_HOST: '127.0.0.1',
    TEMPORAL_UI_ORIGIN: `http://localhost:${ports.temporalUi}`,
  };
}

export interface MinioSecrets {
  user: string;
  password: string;
  kmsKey: string;
}

/** MinIO's root credentials and its KMS key: made once and kept with the data (0600), or its objects would be unreadable. */
export async function minioSecrets(dataDir: string): Promise<MinioSecrets> {
  const file = join(dataDir, 'minio-secrets.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as MinioSecrets;
  const secrets = { user: 'portal-cluster', password: randomBytes(24).toString('base64url'), kmsKey: `portal-cluster-key:${randomBytes(32).toString('base64')}` };
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/**
 * The environment of the cluster's API replicas and workers (a replica or worker adds its own ports):
 * what `npm run start:cluster` gives them, and what a worker of another build started beside them
 * needs (tests/cluster/rolling-upgrade.test.ts).
 */
export async function clusterAppEnvironment(base: NodeJS.ProcessEnv, dataDir: string, ports: ClusterPorts): Promise<NodeJS.ProcessEnv> {
  const secrets = await readLocalSecrets(dataDir);
  const minio = await minioSecrets(dataDir);
  return clusterEnvironment(
    base,
    machineSettings(
      ports,
      { database: embeddedPostgresUrl(ports.postgres, 'portal'), smtp: `smtp://127.0.0.1:${ports.smtp}` },
      { ...secrets, S3_ACCESS_KEY_ID: minio.user, S3_SECRET_ACCESS_KEY: minio.password },
      dataDir,
    ),
  );
}

/** The production settings without what points outside this machine, then this machine's addresses and secrets. */
export function clusterEnvironment(base: NodeJS.ProcessEnv, machine: Record<string, string>): NodeJS.ProcessEnv {
  const production = productionSettings();
  for (const name of OUTSIDE_ADDRESSES) delete production[name];
  return { ...base, ...production, ...machine };
}

/**
 * The build this checkout is, for Worker Deployment Versioning: a hash of the workflow code and
 * what it imports (workflows/, domain/) and the lock file, so a change to any of them is a new
 * build and nothing else is.
 */
export function checkoutBuildId(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else {
        hash.update(path.slice(root.length));
        hash.update(readFileSync(path));
      }
    }
  };
  walk(join(root, 'workflows'));
  walk(join(root, 'domain'));
  hash.update(readFileSync(join(root, 'package-lock.json')));
  return `build-${hash.digest('hex').slice(0, 12)}`;
}
