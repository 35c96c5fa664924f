import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** Counters of @fastify/rate-limit's PostgreSQL store (api/plugins/rate-limit-store.ts). */
export interface RateLimitHitTable {
  key: string;
  count: number;
  expires_at: Timestamp;
}

/** Failures of one throttle key (an account, or an account and address pair): api/services/sign-in-throttle.ts. */
export interface AuthThrottleTable {
  key: string;
  failures: Generated<number>;
  first_failed_at: Generated<Date>;
  last_failed_at: Generated<Date>;
  /** The next try is refused (429 with Retry-After) until then. */
  blocked_until: Timestamp | null;
  /** When the account's owner was last told of repeated failures. */
  notified_at: Timestamp | null;
}

/** A device that signed in before: it keeps signing in while strangers are throttled (ASVS V6). */
export interface KnownDeviceTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  failures: Generated<number>;
  created_at: Generated<Date>;
  last_used_at: Generated<Date>;
  revoked_at: Timestamp | null;
}

/** One request sent with an Idempotency-Key (api/plugins/idempotency.ts): its first answer, given again to a retry. */
export interface IdempotentRequestTable {
  /** The key hashed with the user's id: two users' keys never meet, and the key itself is not kept. */
  key_hash: string;
  user_id: string;
  /** The method, route, parameters, query and body (a multipart body's parts digest) the key was first sent with: a key reused for another request is refused. */
  fingerprint: string;
  /**
   * Random, set by the request that holds the key (a retry that takes an expired lease sets its
   * own): renewal, the kept answer and the release match it, so a stalled first request cannot
   * touch its retry's row. Null on rows from before it was added.
   */
  lease_token: string | null;
  /** A retry before then is told the first is still being handled; after it, the retry runs it again. */
  locked_until: Timestamp;
  /** Null while the first request runs. */
  status_code: number | null;
  response_encrypted: string | null;
  created_at: Generated<Date>;
}

export interface SecurityTables {
  idempotent_requests: IdempotentRequestTable;
  rate_limit_hits: RateLimitHitTable;
  auth_throttles: AuthThrottleTable;
  known_devices: KnownDeviceTable;
}
