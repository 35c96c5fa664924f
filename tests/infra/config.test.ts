import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { ConfigError, loadConfig } from '../../infra/config';

const valid = {
  DATABASE_URL: 'postgres://u:p@db.internal:5432/portal',
  TEMPORAL_ADDRESS: 'temporal.internal:7233',
  JWT_SECRET: 'x'.repeat(40),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

describe('configuration', () => {
  it('accepts a complete configuration and fills defaults', () => {
    const config = loadConfig(valid);
    expect(config.PORT).toBe(3000);
    expect(config.PG_POOL_MAX).toBe(10);
    expect(config.BLOB_DRIVER).toBe('local');
    // Texts are files until a provider is configured.
    expect(config.SMS_PROVIDER).toBe('file');
    expect(config.TWILIO_API_URL).toBe('https://api.twilio.com');
  });

  it('accepts a Twilio account with a number or a Messaging Service as the sender', () => {
    const twilio = { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'f'.repeat(32) };
    expect(loadConfig({ ...valid, ...twilio, TWILIO_FROM: '+12125550100' }).TWILIO_FROM).toBe('+12125550100');
    expect(loadConfig({ ...valid, ...twilio, TWILIO_FROM: `MG${'1'.repeat(32)}` }).SMS_PROVIDER).toBe('twilio');
  });

  it.each([
    [{ DATABASE_URL: 'mysql://u@h/db' }, 'DATABASE_URL must start with postgres://'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL'],
    [{ TEMPORAL_ADDRESS: 'http://temporal:7233' }, 'TEMPORAL_ADDRESS must be host:port'],
    [{ DATA_ENCRYPTION_KEY: 'short' }, 'DATA_ENCRYPTION_KEY must be 32 bytes'],
    [{ BLOB_DRIVER: 's3' }, 'S3_BUCKET is required when BLOB_DRIVER=s3'],
    [{ PG_POOL_MAX: 'many' }, 'PG_POOL_MAX'],
    [{ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_FROM: '+12125550100' }, 'TWILIO_AUTH_TOKEN is required when SMS_PROVIDER=twilio'],
    [{ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'f'.repeat(32), TWILIO_FROM: '212-555-0100' }, 'TWILIO_FROM must be a phone number like +12125550100'],
    [{ SMS_PROVIDER: 'carrier-pigeon' }, 'SMS_PROVIDER'],
    [{ TWILIO_API_URL: 'api.twilio.com' }, 'TWILIO_API_URL must be a URL'],
  ])('refuses %o with one line naming the variable', (override, expected) => {
    let error: unknown;
    try {
      loadConfig({ ...valid, ...override });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(expected);
    expect(message).not.toContain('\n');
  });

  it('refuses the secret ledger outside NODE_ENV=test, so no deployment can write secrets to a file', () => {
    for (const NODE_ENV of [undefined, 'development', 'production']) {
      expect(() => loadConfig({ ...valid, NODE_ENV, PORTAL_SECRET_LEDGER: '/tmp/secrets.ndjson' }), String(NODE_ENV)).toThrow(/^Invalid configuration: PORTAL_SECRET_LEDGER is for the test run only/);
    }
    expect(loadConfig({ ...valid, NODE_ENV: 'test', PORTAL_SECRET_LEDGER: '/tmp/secrets.ndjson' }).PORTAL_SECRET_LEDGER).toBe('/tmp/secrets.ndjson');
  });

  it('names a missing variable', () => {
    expect(() => loadConfig({ ...valid, DATABASE_URL: undefined })).toThrow('DATABASE_URL is required');
  });
});

/** Runs an entry point as a real process and returns its exit code and output. */
function runEntry(script: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('start-up with unreachable services fails with one clear line', () => {
  const env = { ...valid, LOG_LEVEL: 'silent' };

  it('a DATABASE_URL nobody answers', async () => {
    const result = await runEntry('api/main.ts', { ...env, DATABASE_URL: 'postgres://u:p@127.0.0.1:1/portal' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^api: cannot reach PostgreSQL at DATABASE_URL \(127\.0\.0\.1:1\/portal\): ECONNREFUSED/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a TEMPORAL_ADDRESS nobody answers', async () => {
    const database = inject('postgresAdminUrl');
    const result = await runEntry('worker/main.ts', { ...env, DATABASE_URL: database, TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^worker: cannot reach Temporal at TEMPORAL_ADDRESS \(127\.0\.0\.1:1\)/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each(['api/main.ts', 'worker/main.ts'])('%s refuses to start with PORTAL_SECRET_LEDGER set outside NODE_ENV=test', async (script) => {
    const result = await runEntry(script, { ...env, NODE_ENV: 'production', PORTAL_SECRET_LEDGER: '/tmp/portal-secrets.ndjson' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^(api|worker): Invalid configuration: PORTAL_SECRET_LEDGER is for the test run only/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a malformed variable', async () => {
    const result = await runEntry('api/main.ts', { ...env, DATABASE_URL: 'nonsense' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('api: Invalid configuration: DATABASE_URL must be a URL like postgres://user:password@host:5432/db; DATABASE_URL must start with postgres:// or postgresql://');
  });
});
