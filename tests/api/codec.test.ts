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
});
