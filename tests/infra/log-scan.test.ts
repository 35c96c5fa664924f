import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error plain JavaScript module shared with tests/run.mjs
import { scanLogs } from '../log-scan.mjs';

type Scan = { files: number; lines: number; secrets: number; leaks: { kind: string }[] };

/** The scan tests/run.mjs runs over the logs of the whole test run: it must catch each kind of secret. */
describe('log scan of a test run', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const line = (msg: string, extra: object = {}) => JSON.stringify({ level: 30, time: 1795436461972, pid: 482913, hostname: 'vm', reqId: 'req-1', msg, ...extra });
  async function scan(secrets: object[], logLines: string[]): Promise<Scan> {
    dir = await mkdtemp(join(tmpdir(), 'portal-logscan-'));
    await writeFile(join(dir, 'secrets-1.ndjson'), secrets.map((s) => JSON.stringify(s)).join('\n'));
    await writeFile(join(dir, 'api-1-1.ndjson'), logLines.join('\n'));
    return scanLogs(dir) as Promise<Scan>;
  }

  const resetToken = 'Q2xhc3NpZmllZC1yZXNldC10b2tlbi0xMjM0NTY3ODk';
  const verifyToken = 'dmVyaWZ5LWVtYWlsLXRva2VuLWFiY2RlZmdoaWprbG1u';

  it('finds a reset token, a verification token, an OTP code and an SSN in the log', async () => {
    const result = await scan(
      [{ kind: 'reset_password', value: resetToken }, { kind: 'verify_email', value: verifyToken }, { kind: 'signature_otp', value: '482913' }, { kind: 'ssn', value: '219099999' }],
      [
        line('incoming request', { req: { method: 'GET', url: `/api/Account/check-reset-token/${resetToken}` } }),
        line('incoming request', { req: { method: 'GET', url: `/api/Account/verify-email?userId=1&token=${verifyToken}` } }),
        line('incoming request', { req: { method: 'GET', url: '/api/Signature/validateotp/otp/482913' } }),
        line('saving', { member: { ssn: '219099999' } }),
        line('oops', { note: 'typed 123-45-6789 somewhere' }),
      ],
    );
    expect(result.leaks.map((l) => l.kind).sort()).toEqual(['reset_password', 'signature_otp', 'ssn', 'ssn-shaped', 'verify_email']);
  });

  it('passes redacted lines, and does not mistake a process id or a time for a code', async () => {
    const result = await scan(
      [{ kind: 'reset_password', value: resetToken }, { kind: 'login_otp', value: '482913' }],
      [
        line('incoming request', { req: { method: 'GET', url: '/api/Account/check-reset-token/:x' } }),
        line('incoming request', { req: { method: 'GET', url: '/api/Account/verify-email?userId=[redacted]&token=[redacted]' } }),
        line('request completed', { responseTime: 4.829131 }),
      ],
    );
    expect(result).toMatchObject({ files: 1, lines: 3, secrets: 2, leaks: [] });
  });
});
