import { createHash, randomBytes, type Hash } from 'node:crypto';
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

/** A multipart body's digest, taken part by part as the route reads it (`digestPart`). */
export interface PartsDigest {
  hash: Hash;
  /** Every part was read: only then is the digest the body's, and the answer kept. */
  complete: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set when the request carries an Idempotency-Key: the hashed key its row is stored under, the
     * lease token that row holds while this request owns it, its renewal, and for a multipart body
     * the digest of its parts.
     */
    idempotency: { keyHash: string; leaseToken: string; renewal: NodeJS.Timeout; head: string; parts: PartsDigest | null } | null;
  }
}

/**
 * The request key a retried effect is found by: the key hashed with the person acting. Under
 * impersonation that is the real user (with the household they act for), so an ambassador's key
 * and the household's own never meet, nor the ambassador's keys for two households.
 */
export function requestKeyHash(userId: string, key: string, realUserId?: string | null): string {
  return createHash('sha256').update(realUserId ? `${realUserId}\n${userId}\n${key}` : `${userId}\n${key}`).digest('base64url');
}

const isMultipart = (request: FastifyRequest) => String(request.headers['content-type'] ?? '').startsWith('multipart/');

/**
 * What a key may be reused for: the same method, route, parameters, query string and JSON body. A
 * multipart body is a stream not yet read here: its parts' digest is added once they are (`withParts`).
 */
function headFingerprint(request: FastifyRequest): string {
  const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const body = isMultipart(request) ? 'multipart' : JSON.stringify(request.body ?? null);
  return createHash('sha256')
    .update(`${request.method} ${request.routeOptions.url ?? request.url}\n${JSON.stringify(request.params ?? {})}\n${query}\n${body}`)
    .digest('base64url');
}

const withParts = (head: string, parts: PartsDigest) => `${head}.${parts.hash.copy().digest('base64url')}`;

const lengthPrefixed = (hash: Hash, value: string | Buffer) => {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(bytes.length));
  hash.update(length).update(bytes);
};

/**
 * Adds one multipart part, as it is read, to the request's digest: its field name, file name and
 * content, each length-prefixed, so the boundary a client picks does not count but every byte of
 * every part does. A no-op for a request without an Idempotency-Key.
 */
export function digestPart(request: FastifyRequest, part: { field: string; value: string } | { field: string; fileName: string; body: Buffer }): void {
  const parts = request.idempotency?.parts;
  if (!parts) return;
  lengthPrefixed(parts.hash, 'value' in part ? 'field' : 'file');
  lengthPrefixed(parts.hash, part.field);
  if ('value' in part) lengthPrefixed(parts.hash, part.value);
  else {
    lengthPrefixed(parts.hash, part.fileName);
    lengthPrefixed(parts.hash, part.body);
  }
}

/** The route read the whole multipart body: its digest is complete. */
export function partsRead(request: FastifyRequest): void {
  const parts = request.idempotency?.parts;
  if (parts) parts.complete = true;
}

/** A retry's multipart body, read here to compare it with the first's before its answer is given again. */
async function digestBody(request: FastifyRequest): Promise<PartsDigest> {
  const parts: PartsDigest = { hash: createHash('sha256'), complete: false };
  const reading = { ...request, idempotency: { parts } } as unknown as FastifyRequest;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') digestPart(reading, { field: part.fieldname, fileName: part.filename ?? '', body: await part.toBuffer() });
      else digestPart(reading, { field: part.fieldname, value: typeof part.value === 'string' ? part.value : JSON.stringify(part.value) });
    }
  } catch {
    throw new HttpError(400, 'validation', 'The upload is not a complete multipart/form-data body');
  }
  parts.complete = true;
  return parts;
}

/** Answers that hand out a session (impersonation starts and exits) are never kept: a replay would hand it out again. */
function carriesTokens(payload: unknown, depth = 0): boolean {
  if (!payload || typeof payload !== 'object' || depth > 4) return false;
  if (Array.isArray(payload)) return payload.some((v) => carriesTokens(v, depth + 1));
  return Object.entries(payload).some(([k, v]) => ((k === 'accessToken' || k === 'refreshToken') && v != null) || carriesTokens(v, depth + 1));
}

const newLeaseToken = () => randomBytes(18).toString('base64url');

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
      const actor = request.session.realUserId ?? request.session.userId;
      const keyHash = requestKeyHash(request.session.userId, key, request.session.realUserId);
      const head = headFingerprint(request);
      const multipart = isMultipart(request);
      let leaseToken = newLeaseToken();
      const taken = await db
        .insertInto('idempotent_requests')
        .values({ key_hash: keyHash, user_id: actor, fingerprint: head, lease_token: leaseToken, locked_until: sql<Date>`now() + make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS})` as never })
        .onConflict((oc) => oc.column('key_hash').doNothing())
        .returning('key_hash')
        .executeTakeFirst();
      if (!taken) {
        const kept: Kept | undefined = await db.selectFrom('idempotent_requests').select(['fingerprint', 'locked_until', 'status_code', 'response_encrypted']).where('key_hash', '=', keyHash).executeTakeFirst();
        if (kept?.status_code != null && kept.response_encrypted) {
          // A kept multipart answer is given again only for the same parts, read here (the retry does not run).
          const fingerprint = multipart ? withParts(head, await digestBody(request)) : head;
          if (kept.fingerprint !== fingerprint) throw new HttpError(422, 'idempotencyKeyReused');
          return reply.code(kept.status_code).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(dataCipher().decrypt(kept.response_encrypted));
        }
        if (kept && kept.fingerprint !== head) throw new HttpError(422, 'idempotencyKeyReused');
        // The first request still runs (or its replica died): only once its lease is over does a
        // retry take it, under a new lease token, so the first can no longer renew, keep or release it.
        leaseToken = newLeaseToken();
        const retaken = await db
          .updateTable('idempotent_requests')
          .set({ lease_token: leaseToken, locked_until: sql<Date>`now() + make_interval(secs => ${IDEMPOTENCY_LEASE_SECONDS})` as never })
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
          .where('lease_token', '=', leaseToken)
          .where('status_code', 'is', null)
          .execute()
          .catch(() => undefined);
      }, RENEW_EVERY_MS);
      renewal.unref();
      request.idempotency = { keyHash, leaseToken, renewal, head, parts: multipart ? { hash: createHash('sha256'), complete: false } : null };
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
      // Each write below only while this request still holds the lease: a retry that took it over owns the row now.
      try {
        // A multipart body the route did not read to its end has no digest to compare a retry with: not kept.
        const unread = held.parts !== null && !held.parts.complete;
        if (status >= 500 || status === 429 || unread || carriesTokens(payload)) {
          await db.deleteFrom('idempotent_requests').where('key_hash', '=', held.keyHash).where('lease_token', '=', held.leaseToken).where('status_code', 'is', null).execute();
        } else {
          await db
            .updateTable('idempotent_requests')
            .set({ status_code: status, response_encrypted: dataCipher().encrypt(JSON.stringify(payload)), ...(held.parts ? { fingerprint: withParts(held.head, held.parts) } : {}) })
            .where('key_hash', '=', held.keyHash)
            .where('lease_token', '=', held.leaseToken)
            .where('status_code', 'is', null)
            .execute();
        }
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
      await db.deleteFrom('idempotent_requests').where('key_hash', '=', held.keyHash).where('lease_token', '=', held.leaseToken).where('status_code', 'is', null).execute().catch(() => undefined);
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
