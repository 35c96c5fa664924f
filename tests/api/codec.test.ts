import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec } from '../../infra/temporal/codec';
import { signIn, startStack, type Stack } from '../helpers/stack';

describe('codec endpoint for operators (Temporal Web UI decoding)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  const encrypted = async () => {
    const codec = EncryptionCodec.fromBase64(stack.config.DATA_ENCRYPTION_KEY);
    const [payload] = await codec.encode([defaultPayloadConverter.toPayload({ householdIncome: 48_000 })]);
    return {
      payloads: [
        {
          metadata: Object.fromEntries(Object.entries(payload!.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
          data: Buffer.from(payload!.data!).toString('base64'),
        },
      ],
    };
  };

  it('decodes for an Admin and for nobody else', async () => {
    const body = await encrypted();
    const admin = await signIn(stack.app, 'Admin');
    await stack.app.inject({ method: 'POST', url: '/api/Operator/codec-reason', headers: admin, payload: { reason: 'Support ticket 12: a lost case' } });
    const decoded = await stack.app.inject({ method: 'POST', url: '/codec/decode', headers: admin, payload: body });
    expect(decoded.statusCode).toBe(200);
    const [payload] = decoded.json().payloads;
    expect(Buffer.from(payload.metadata.encoding, 'base64').toString()).toBe('json/plain');
    expect(JSON.parse(Buffer.from(payload.data, 'base64').toString())).toEqual({ householdIncome: 48_000 });

    const manager = await signIn(stack.app, 'Manager');
    expect((await stack.app.inject({ method: 'POST', url: '/codec/decode', headers: manager, payload: body })).statusCode).toBe(403);
    expect((await stack.app.inject({ method: 'POST', url: '/codec/decode', payload: body })).statusCode).toBe(401);
  });

  it('allows the Web UI origin to call it cross-origin', async () => {
    const preflight = await stack.app.inject({ method: 'OPTIONS', url: '/codec/decode', headers: { origin: 'http://localhost:8233' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:8233');
    const other = await stack.app.inject({ method: 'OPTIONS', url: '/codec/decode', headers: { origin: 'http://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('decodes only after the Admin gave a reason for the sign-in, once, and audits every decode with it', async () => {
    const body = await encrypted();
    const admin = await signIn(stack.app, 'Admin');
    const decode = (who: { authorization: string }) => stack.app.inject({ method: 'POST', url: '/codec/decode', headers: { authorization: who.authorization }, payload: body });
    const codecRows = () => stack.db.selectFrom('operator_audit').select(['action', 'reason', 'detail', 'workflow_id']).where('actor_user_id', '=', admin.userId).where('workflow_id', '=', '(codec)').orderBy('id').execute();
    const before = (await codecRows()).length;

    const refused = await decode(admin);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ status: 403, data: { code: 'operatorReasonRequired' } });
    expect(refused.body).not.toContain('48000');
    expect(await codecRows()).toHaveLength(before);

    expect((await stack.app.inject({ method: 'POST', url: '/api/Operator/codec-reason', headers: admin, payload: { reason: 'no' } })).statusCode).toBe(400);
    const reason = 'Ticket 77: the applicant says her income was lost';
    const given = await stack.app.inject({ method: 'POST', url: '/api/Operator/codec-reason', headers: admin, payload: { reason } });
    expect(given.statusCode).toBe(200);
    // Once per sign-in: the Web UI's calls with that token then decode, each one audited.
    expect((await decode(admin)).statusCode).toBe(200);
    expect((await decode(admin)).statusCode).toBe(200);
    const rows = (await codecRows()).slice(before);
    expect(rows.map((r) => [r.action, r.reason, (r.detail as { what: string }).what])).toEqual([
      ['reveal', reason, 'codec session'],
      ['reveal', reason, 'payloads through the codec'],
      ['reveal', reason, 'payloads through the codec'],
    ]);

    // Another sign-in of the same Admin is another session: the reason is asked again.
    const again = await signIn(stack.app, 'Admin');
    expect((await decode(again)).statusCode).toBe(403);
    const manager = await signIn(stack.app, 'Manager');
    expect((await stack.app.inject({ method: 'POST', url: '/api/Operator/codec-reason', headers: manager, payload: { reason } })).statusCode).toBe(403);
  });
});
