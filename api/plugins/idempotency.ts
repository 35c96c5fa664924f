import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '../../domain';
import { dataCipher } from '../../infra/data-keys';
import { HttpError } from '../errors';

/**
 * Idempotency-Key (the IETF httpapi draft, as payment APIs use it): a client that did not get an
 * answer (a replica killed mid-request, a phone that lost its signal) sends the same request again
 * with the same key and gets the first answer, not a second effect.
 *
 * The first request with a key takes a short lease and runs; its answer (any status below 500
 * but 429) is kept, sealed, for a day and given again to every retry with `Idempotent-Replayed`.
 * A retry while the first still runs is told to wait (409, Retry-After). A 5xx answer is not kept:
 * the retry runs again. When the replica dies mid-request, no answer is kept either, so a retry
 * after the lease runs again; every effect under it is itself keyed by the same request key
 * (`Session.requestKey`): a case action is an Update whose ID it is (Temporal answers a second
 * Update with the same ID with the first one's outcome), a chat message and a document carry it,
 * and an application is one per household and opportunity by its workflow ID.
 */

/**
 * Seconds a request holds its key, renewed every second while it runs: a request on a replica
 * that died stops renewing, and its retry may run a few seconds later, however long requests take.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 3;
const RENEW_EVERY_MS = 1000;
/** How long an answer is kept for its retries. */
const KEEP_HOURS = 24;
const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request carries an Idempotency-Key: the hashed key its row is stored under, and its lease's renewal. */
    idempotency: { keyHash: string; renewal: NodeJS.Timeout } | null;
  }
}

/** The request key a retried effect is found by: the user's key hashed with their id. */
export function requestKeyHash(userId: string, key: string): string {
  return createHash('sha256').update(`${userId}\n${key}`).digest('base64url');
}

/** What a key may be reused for: the same method, route, parameters and body. Multipart bodies are streams: the route alone. */
function fingerprintOf(request: FastifyRequest): string {
  const body = String(request.headers['content-type'] ?? '').startsWith('multipart/') ? '' : JSON.stringify(request.body ?? null);
  return createHash('sha256').update(`${request.method} ${request.routeOptions.url ?? request.url}\n${JSON.stringify(request.params ?? {})}\n${body}`).digest('base64url');
}

interface Kept {
  fingerprint: string;
  locked_until: Date;
  status_code: number | null;
  response_encrypted: string | null;
}

export const idempotencyPlugin = fp(
  async (app) => {
    app.decorateRequest('idempotency', null);
    const db = app.db;

    // After the route's guard (onRequest) and its body's validation, before its handler.
    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['idempotency-key'];
      if (!MUTATING.has(request.method) || key === undefined || !request.session) return;
      if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw new HttpError(400, 'validation', 'Idempotency-Key must be 8 to 128 letters, digits or . _ : -');
      const keyHash = requestKeyHash(request.session.userId, key);
      const fingerprint = fingerprintOf(request);
      const taken = await db
        .insertInto('idempotent_requests')
        .values({ key_hash: keyHash, user_id: request.session.userId, fingerprint, locked_until: sql<Date>`now() + make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS})` as never })
        .onConflict((oc) => oc.column('key_hash').doNothing())
        .returning('key_hash')
        .executeTakeFirst();
      if (!taken) {
        const kept: Kept | undefined = await db.selectFrom('idempotent_requests').select(['fingerprint', 'locked_until', 'status_code', 'response_encrypted']).where('key_hash', '=', keyHash).executeTakeFirst();
        if (kept && kept.fingerprint !== fingerprint) throw new HttpError(422, 'idempotencyKeyReused');
        if (kept?.status_code != null && kept.response_encrypted) {
          return reply.code(kept.status_code).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(dataCipher().decrypt(kept.response_encrypted));
        }
        // The first request still runs (or its replica died): only once its lease is over does a retry take it.
        const retaken = await db
          .updateTable('idempotent_requests')
          .set({ locked_until: sql<Date>`now() + make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS})` as never })
          .where('key_hash', '=', keyHash)
          .where('status_code', 'is', null)
          .where('locked_until', '<', sql<Date>`now()` as never)
          .returning('key_hash')
          .executeTakeFirst();
        if (!retaken) {
          reply.header('retry-after', '1');
          throw new HttpError(409, 'requestInProgress', MESSAGES.requestInProgress);
        }
      }
      const renewal = setInterval(() => {
        void db
          .updateTable('idempotent_requests')
          .set({ locked_until: sql<Date>`now() + make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS})` as never })
          .where('key_hash', '=', keyHash)
          .where('status_code', 'is', null)
          .execute()
          .catch(() => undefined);
      }, RENEW_EVERY_MS);
      renewal.unref();
      request.idempotency = { keyHash, renewal };
      request.session = { ...request.session, requestKey: keyHash };
    });

    // The answer as an object, before it is serialised and compressed: kept for the retries, or the
    // key released when it is a 5xx (or the client is told to slow down) so that a retry runs again.
    app.addHook('preSerialization', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const held = request.idempotency;
      if (!held || reply.getHeader('idempotent-replayed')) return payload;
      request.idempotency = null;
      clearInterval(held.renewal);
      const status = reply.statusCode;
      try {
        if (status >= 500 || status === 429) await db.deleteFrom('idempotent_requests').where('key_hash', '=', held.keyHash).execute();
        else await db.updateTable('idempotent_requests').set({ status_code: status, response_encrypted: dataCipher().encrypt(JSON.stringify(payload)) }).where('key_hash', '=', held.keyHash).execute();
      } catch (error) {
        // The answer still goes out; without its row a retry after the lease runs again, and the effect's own key finds the first.
        request.log.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'idempotent answer not kept');
      }
      return payload;
    });

    // A request whose answer never passed through serialisation (a stream, a file), or whose client
    // went away, keeps no answer: its key is released.
    const release = async (request: FastifyRequest) => {
      const held = request.idempotency;
      if (!held) return;
      request.idempotency = null;
      clearInterval(held.renewal);
      await db.deleteFrom('idempotent_requests').where('key_hash', '=', held.keyHash).execute().catch(() => undefined);
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);

    const sweep = setInterval(() => {
      void db.deleteFrom('idempotent_requests').where('created_at', '<', sql<Date>`now() - make_interval(hours => ${KEEP_HOURS})` as never).execute().catch(() => undefined);
    }, 10 * 60_000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'idempotency', dependencies: ['envelope'] },
);
