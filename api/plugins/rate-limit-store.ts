import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A @fastify/rate-limit store on PostgreSQL (table `rate_limit_hits`), so every API replica counts
 * against the same limits (`RATE_LIMIT_STORE=postgres`, the default). One upsert per counted request;
 * expired rows are swept now and then.
 */
export function postgresRateLimitStore(db: Db) {
  return class PostgresRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      const ms = Math.max(1, Math.round(timeWindow));
      sql<{ count: number; ttl: number }>`
        insert into rate_limit_hits (key, count, expires_at) values (${key}, 1, now() + ${ms} * interval '1 millisecond')
        on conflict (key) do update set
          count = case when rate_limit_hits.expires_at <= now() then 1 else rate_limit_hits.count + 1 end,
          expires_at = case when rate_limit_hits.expires_at <= now() then now() + ${ms} * interval '1 millisecond' else rate_limit_hits.expires_at end
        returning count, greatest(0, ceil(extract(epoch from (expires_at - now())) * 1000))::int as ttl`
        .execute(db)
        .then((result) => {
          const row = result.rows[0]!;
          callback(null, { current: Number(row.count), ttl: Number(row.ttl) });
          if (Math.random() < 0.01) void sql`delete from rate_limit_hits where expires_at < now()`.execute(db).catch(() => undefined);
        }, (error: Error) => callback(error));
    }

    read(key: string, callback: Callback): void {
      sql<{ count: number; ttl: number }>`
        select count, greatest(0, ceil(extract(epoch from (expires_at - now())) * 1000))::int as ttl
        from rate_limit_hits where key = ${key} and expires_at > now()`
        .execute(db)
        .then((result) => {
          const row = result.rows[0];
          callback(null, row ? { current: Number(row.count), ttl: Number(row.ttl) } : { current: 0, ttl: 0 });
        }, (error: Error) => callback(error));
    }

    child(): PostgresRateLimitStore {
      return new PostgresRateLimitStore();
    }
  };
}
