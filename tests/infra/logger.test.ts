import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loggerOptions } from '../../infra/logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino(loggerOptions({ LOG_LEVEL: 'info' }, 'test'), stream), lines };
}

describe('structured logs', () => {
  it('censor personal data and credentials wherever they sit in a logged object', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        body: { ssn: '123-45-6789', itin: '912-70-1234', alienRegistrationNumber: 'A123456789', password: 'Secret#1', householdIncome: 52000 },
        member: { ssn: '987-65-4321', fullName: 'Ana Diaz' },
        household: { members: [{ ssn: '555-66-7777' }], income: { amount: 31337 } },
        req: { headers: { authorization: 'Bearer abc.def.ghi' } },
        ssn: '111-22-3333',
      },
      'saving member',
    );
    const text = lines.join('');
    for (const secret of ['123-45-6789', '912-70-1234', 'A123456789', 'Secret#1', '52000', '987-65-4321', 'abc.def.ghi', '111-22-3333', '555-66-7777', '31337']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
    expect(JSON.parse(lines[0]!).member.fullName).toBe('Ana Diaz'); // not everything is hidden
  });
});
