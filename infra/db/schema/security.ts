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

export interface SecurityTables {
  rate_limit_hits: RateLimitHitTable;
  auth_throttles: AuthThrottleTable;
  known_devices: KnownDeviceTable;
}
