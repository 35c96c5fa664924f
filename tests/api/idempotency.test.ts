/**
 * Idempotency-Key on the real stack: a retried request gets the first answer, and a retry after a
 * crash between the effect and its kept answer (the kept row removed, as a replica killed there
 * leaves it) finds the first effect instead of making a second: a chat message, a document, and a
 * case action (its Update ID).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { envelopePlugin } from '../../api/plugins/envelope';
import { idempotencyPlugin, requestKeyHash } from '../../api/plugins/idempotency';
import type { Session } from '../../api/session';
import { TINY_PNG } from '../helpers/lease-up-env';
import { rentalInput } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };

describe('a request sent again with its Idempotency-Key', () => {
  let stack: Stack;
  let tenant: Auth;
  let applicant: Auth;
  let manager: Auth;

  beforeAll(async () => {
    stack = await startStack();
    [tenant, applicant, manager] = await Promise.all([signIn(stack.app, 'Tenant'), signIn(stack.app, 'User'), signIn(stack.app, 'Manager')]);
  });
  afterAll(() => stack?.close());

  const post = (url: string, who: Auth, key: string | undefined, payload?: object) =>
    stack.app.inject({ method: 'POST', url, headers: { authorization: who.authorization, ...(key ? { 'idempotency-key': key } : {}) }, ...(payload ? { payload } : {}) });
  /** What a replica killed after the effect and before keeping the answer leaves: the key's row gone. */
  const forgetAnswer = (who: Auth, key: string) => stack.db.deleteFrom('idempotent_requests').where('key_hash', '=', requestKeyHash(who.userId, key)).execute();
  const sentByTenant = async () => (await stack.db.selectFrom('chat_messages').select('id').where('sender_user_id', '=', tenant.userId).execute()).length;

  it('refuses a malformed key or a key reused for another request, in the envelope, sending nothing', async () => {
    const before = await sentByTenant();
    const bad = await post('/api/Chat/SendMessage', tenant, 'short', { message: 'hello' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    const first = await post('/api/Chat/SendMessage', tenant, 'reuse-key-0001', { message: 'first' });
    expect(first.statusCode).toBe(201);
    const other = await post('/api/Chat/SendMessage', tenant, 'reuse-key-0001', { message: 'something else' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ status: 422, data: { code: 'idempotencyKeyReused' } });
    expect(await sentByTenant()).toBe(before + 1);
  });

  it('gives the first answer again, marked as replayed, and sends one message', async () => {
    const key = 'chat-replay-0001';
    const first = await post('/api/Chat/SendMessage', tenant, key, { message: 'Is the laundry room open on Sundays?' });
    expect(first.statusCode).toBe(201);
    const again = await post('/api/Chat/SendMessage', tenant, key, { message: 'Is the laundry room open on Sundays?' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const rows = await stack.db.selectFrom('chat_messages').select('id').where('request_key', '=', requestKeyHash(tenant.userId, key)).execute();
    expect(rows.map((r) => r.id)).toEqual([first.json().data.messageId]);
    // Another user's identical key is another request.
    const managerKey = await post('/api/Chat/SendMessage', manager, key, { message: 'Yes, 8 to 8.', householdId: first.json().data.householdId });
    expect(managerKey.statusCode).toBe(201);
    expect(managerKey.headers['idempotent-replayed']).toBeUndefined();
  });

  it('tells a retry to wait while the first still holds its key, and lets it run once the lease is over', async () => {
    const key = 'chat-inflight-0001';
    const body = { message: 'Still there?' };
    // The first request's row as it is while that request runs (or just after its replica died).
    await stack.db
      .insertInto('idempotent_requests')
      .values({ key_hash: requestKeyHash(tenant.userId, key), user_id: tenant.userId, fingerprint: 'x', locked_until: sql`now() + interval '1 hour'` as never })
      .execute();
    const waiting = await post('/api/Chat/SendMessage', tenant, key, body);
    // A different fingerprint is refused first; the same one waits.
    expect(waiting.statusCode).toBe(422);
    await forgetAnswer(tenant, key);
    const first = await post('/api/Chat/SendMessage', tenant, key, body);
    expect(first.statusCode).toBe(201);
    await stack.db.updateTable('idempotent_requests').set({ status_code: null, response_encrypted: null, locked_until: sql`now() + interval '1 hour'` as never }).where('key_hash', '=', requestKeyHash(tenant.userId, key)).execute();
    const inProgress = await post('/api/Chat/SendMessage', tenant, key, body);
    expect(inProgress.statusCode).toBe(409);
    expect(inProgress.headers['retry-after']).toBe('1');
    expect(inProgress.json()).toMatchObject({ status: 409, data: { code: 'requestInProgress' } });
    // The lease over (the first request's replica died): the retry runs, and finds the message the first one wrote.
    await stack.db.updateTable('idempotent_requests').set({ locked_until: sql`now() - interval '1 second'` as never }).where('key_hash', '=', requestKeyHash(tenant.userId, key)).execute();
    const retried = await post('/api/Chat/SendMessage', tenant, key, body);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.json().data.messageId).toBe(first.json().data.messageId);
  });

  it('a chat message: a retry after a crash between the write and the kept answer writes nothing more', async () => {
    const key = 'chat-crash-00001';
    const first = await post('/api/Chat/SendMessage', tenant, key, { message: 'The elevator is stuck' });
    await forgetAnswer(tenant, key);
    const retried = await post('/api/Chat/SendMessage', tenant, key, { message: 'The elevator is stuck' });
    expect(retried.statusCode).toBe(201);
    expect(retried.json().data.messageId).toBe(first.json().data.messageId);
    expect(await stack.db.selectFrom('chat_messages').select('id').where('request_key', '=', requestKeyHash(tenant.userId, key)).execute()).toHaveLength(1);
  });

  it('a document: the retry names the file as the first did, so one row and one file', async () => {
    const key = 'document-crash-01';
    const boundary = '----portal-idempotency';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lease.png"\r\nContent-Type: image/png\r\n\r\n`),
      TINY_PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = () =>
      stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', headers: { authorization: tenant.authorization, 'idempotency-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    const first = await upload();
    expect(first.statusCode, first.body).toBe(201);
    const [doc] = first.json().data as { id: string }[];
    await forgetAnswer(tenant, key);
    const retried = await upload();
    expect(retried.statusCode).toBe(201);
    expect((retried.json().data as { id: string }[]).map((d) => d.id)).toEqual([doc!.id]);
    const rows = await stack.db.selectFrom('household_documents').select(['id', 'blob_key']).where('id', '=', doc!.id).execute();
    expect(rows).toHaveLength(1);
    expect(await stack.blobs.get(rows[0]!.blob_key!)).not.toBeNull();
  });

  it('a case action: the retry is the same Update, so the case takes it once', async () => {
    const created = await post('/api/Opportunity/manage', manager, undefined, rentalInput('Idempotency Court'));
    expect(created.statusCode, created.body).toBe(201);
    const opportunity = created.json().data as { id: string };
    expect((await post(`/api/Opportunity/manage/${opportunity.id}/publish`, manager, undefined)).statusCode).toBe(200);
    const applied = await post('/api/LeaseUpApplication/apply', applicant, 'apply-key-000001', { opportunityId: opportunity.id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true });
    expect(applied.statusCode, applied.body).toBe(201);
    const id = applied.json().data.applicationId as string;
    // The apply's answer is given again to its retry, not "Already applied".
    const reapplied = await post('/api/LeaseUpApplication/apply', applicant, 'apply-key-000001', { opportunityId: opportunity.id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true });
    expect(reapplied.statusCode).toBe(201);
    expect(reapplied.json().data.applicationId).toBe(id);

    const key = 'update-crash-0001';
    const update = (who: Auth, withKey: string | undefined, householdSize: number) =>
      post(`/api/LeaseUpApplication/update-info/${id}`, who, withKey, { householdSize, householdIncome: 54_000 });
    const updates = async () => {
      const detail = await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${id}`, headers: { authorization: manager.authorization } });
      return (detail.json().data.history as { action: string }[]).filter((h) => h.action === 'UpdateInfo').length;
    };
    const first = await update(applicant, key, 3);
    expect(first.statusCode, first.body).toBe(200);
    await forgetAnswer(applicant, key);
    const retried = await update(applicant, key, 3);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await updates()).toBe(1);
    // Without a key the same request is a second action: the key is what made the retry safe.
    expect((await update(applicant, undefined, 3)).statusCode).toBe(200);
    expect(await updates()).toBe(2);
  });
  it('a multipart body is fingerprinted by its parts: the same parts replay (whatever the boundary), other content is refused', async () => {
    const key = 'document-parts-01';
    const form = (boundary: string, png: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lease.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const upload = (boundary: string, png: Buffer) =>
      stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', headers: { authorization: tenant.authorization, 'idempotency-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: form(boundary, png) });
    const first = await upload('----first-boundary', TINY_PNG);
    expect(first.statusCode, first.body).toBe(201);
    const same = await upload('----another-boundary', TINY_PNG);
    expect(same.statusCode).toBe(201);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(same.json()).toEqual(first.json());
    // Another file under the same key and name: not the first request, so not its answer.
    const other = Buffer.concat([TINY_PNG, Buffer.from('other bytes')]);
    const changed = await upload('----first-boundary', other);
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toMatchObject({ status: 422, data: { code: 'idempotencyKeyReused' } });
  });

  /**
   * The plugin on its own app over the stack's database, with a route a test holds open and a
   * session named by headers (impersonation included), to stall a first request past its lease.
   */
  describe('leases, the query string, the person acting and answers with tokens', () => {
    let app: FastifyInstance;
    let runs = 0;
    const gates = new Map<string, { opened: Promise<void>; open: () => void; entered: Promise<void>; enter: () => void }>();
    const gate = (name: string) => {
      let open!: () => void;
      let enter!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      const entered = new Promise<void>((r) => (enter = r));
      gates.set(name, { opened, open, entered, enter });
      return gates.get(name)!;
    };

    beforeAll(async () => {
      app = Fastify({ logger: false });
      app.decorate('db', stack.db);
      app.decorateRequest('session', null as unknown as Session);
      app.addHook('onRequest', async (request) => {
        const userId = String(request.headers['x-user']);
        const realUserId = request.headers['x-real-user'] ? String(request.headers['x-real-user']) : null;
        request.session = { userId, role: 'User', realUserId };
      });
      await app.register(envelopePlugin);
      await app.register(idempotencyPlugin);
      app.post('/run', async (request, reply) => {
        const held = gates.get(String((request.query as { gate?: string }).gate ?? ''));
        const run = ++runs;
        if (held) {
          // A stalled first request: its renewal stops (as on a replica that froze) until the gate opens.
          clearInterval(request.idempotency!.renewal);
          held.enter();
          await held.opened;
          if ((request.query as { fail?: string }).fail) throw new Error('the stalled request failed');
        }
        return reply.ok({ run });
      });
      app.post('/session', async (_request, reply) => reply.ok({ run: ++runs, accessToken: `token-${runs}`, refreshToken: `refresh-${runs}` }));
      await app.ready();
    });
    afterAll(() => app?.close());

    const send = (url: string, key: string, who: { userId: string; realUserId?: string }, payload: object = { same: 'body' }) =>
      app.inject({ method: 'POST', url, payload, headers: { 'idempotency-key': key, 'x-user': who.userId, ...(who.realUserId ? { 'x-real-user': who.realUserId } : {}) } });
    const expireLease = (keyHash: string) => stack.db.updateTable('idempotent_requests').set({ locked_until: sql`now() - interval '1 second'` as never }).where('key_hash', '=', keyHash).execute();

    for (const ending of ['answers', 'fails'] as const) {
      it(`a first request stalled past its lease that then ${ending} leaves its retry's kept answer alone`, async () => {
        const key = `stalled-${ending}-0001`;
        const g = gate(`g-${ending}`);
        const url = `/run?gate=g-${ending}${ending === 'fails' ? '&fail=1' : ''}`;
        const stalled = send(url, key, tenant);
        await g.entered;
        await expireLease(requestKeyHash(tenant.userId, key));
        // The retry takes the expired lease, runs and keeps its answer.
        gates.delete(`g-${ending}`);
        const retry = await send(url, key, tenant);
        expect(retry.statusCode).toBe(200);
        expect(retry.headers['idempotent-replayed']).toBeUndefined();
        g.open();
        await stalled;
        // Neither the stalled request's late answer nor its failure touched the retry's.
        const again = await send(url, key, tenant);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json()).toEqual(retry.json());
      });
    }

    it('the query string is part of the fingerprint', async () => {
      const key = 'query-key-000001';
      expect((await send('/run?x=1', key, tenant)).statusCode).toBe(200);
      const other = await send('/run?x=2', key, tenant);
      expect(other.statusCode).toBe(422);
      expect(other.json()).toMatchObject({ status: 422, data: { code: 'idempotencyKeyReused' } });
      expect((await send('/run?x=1', key, tenant)).headers['idempotent-replayed']).toBe('true');
    });

    it('keys are scoped to the person acting: the real user under impersonation', async () => {
      const key = 'shared-key-000001';
      const own = await send('/run', key, tenant);
      expect(own.statusCode).toBe(200);
      // The manager acting for the tenant sends the same key and body: another person's request.
      const acting = await send('/run', key, { userId: tenant.userId, realUserId: manager.userId });
      expect(acting.statusCode).toBe(200);
      expect(acting.headers['idempotent-replayed']).toBeUndefined();
      expect(acting.json().data.run).not.toBe(own.json().data.run);
      const row = await stack.db.selectFrom('idempotent_requests').select('user_id').where('key_hash', '=', requestKeyHash(tenant.userId, key, manager.userId)).executeTakeFirstOrThrow();
      expect(row.user_id).toBe(manager.userId);
      // Their retries get their own answers.
      expect((await send('/run', key, { userId: tenant.userId, realUserId: manager.userId })).json()).toEqual(acting.json());
      expect((await send('/run', key, tenant)).json()).toEqual(own.json());
    });

    it('an answer that carries tokens is never kept: a retry runs again', async () => {
      const key = 'token-key-000001';
      const first = await send('/session', key, tenant);
      expect(first.statusCode).toBe(200);
      const retry = await send('/session', key, tenant);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(retry.json().data.accessToken).not.toBe(first.json().data.accessToken);
      expect(await stack.db.selectFrom('idempotent_requests').select('key_hash').where('key_hash', '=', requestKeyHash(tenant.userId, key)).execute()).toEqual([]);
    });
  });
});
