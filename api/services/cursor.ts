import { sql, type RawBuilder } from 'kysely';
import type { Page, SortDirection } from '../../domain';
import { HttpError } from '../errors';

/**
 * Keyset paging: a list is ordered by its sort keys and then a unique id, and the next page starts
 * after the last row's (keys, id). The cursor carries those values as text (timestamps keep their
 * microseconds), so no row is skipped or repeated however many share a sort value.
 */
export interface SortKey {
  expr: RawBuilder<unknown>;
  /** The SQL type the text value is cast back to. */
  type: 'text' | 'timestamptz' | 'bigint' | 'integer';
}

export interface Keyset {
  keys: readonly SortKey[];
  /** The unique tie-breaker, e.g. sql.ref('u.id'). */
  id: RawBuilder<unknown>;
  idType: 'uuid' | 'bigint';
}

/** Selections `k0..kn` (the sort values as text) and `kid`, for building the next cursor. */
export function keysetSelections(keyset: Keyset) {
  return [...keyset.keys.map((k, i) => sql<string>`(${k.expr})::text`.as(`k${i}`)), sql<string>`(${keyset.id})::text`.as('kid')];
}

/** Orders a query by the keyset (one orderBy per key, then the id). */
export function orderByKeyset<QB extends { orderBy(expr: RawBuilder<unknown>): QB }>(qb: QB, keyset: Keyset, dir: SortDirection): QB {
  const d = sql.raw(dir === 'asc' ? 'asc' : 'desc');
  return [...keyset.keys.map((k) => sql`${k.expr} ${d}`), sql`${keyset.id} ${d}`].reduce((q, order) => q.orderBy(order), qb);
}

/** Rows after the cursor in the list's order. */
export function keysetAfter(keyset: Keyset, dir: SortDirection, values: readonly string[]) {
  const left = sql.join([...keyset.keys.map((k) => k.expr), keyset.id]);
  const right = sql.join([
    ...keyset.keys.map((k, i) => sql`cast(${values[i]} as ${sql.raw(k.type)})`),
    sql`cast(${values[keyset.keys.length]} as ${sql.raw(keyset.idType)})`,
  ]);
  return sql<boolean>`(${left}) ${sql.raw(dir === 'asc' ? '>' : '<')} (${right})`;
}

/** The cursor's values, or null for the first page; a cursor that was not made here is a 400. */
export function decodeCursor(cursor: string | undefined, keyset: Keyset, tag: string): string[] | null {
  if (!cursor) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(parsed) &&
      parsed[0] === tag &&
      parsed.length === keyset.keys.length + 2 &&
      parsed.slice(1).every((v) => typeof v === 'string' && v.length <= 300)
    ) {
      return parsed.slice(1) as string[];
    }
  } catch {
    // falls through to the refusal
  }
  throw new HttpError(400, 'validation', 'Invalid cursor');
}

type KeysetRow = { kid: string } & Record<string, unknown>;

/**
 * Cuts the `limit + 1` rows read into a page and the next cursor. `tag` names the list and its
 * sort, so a cursor of one list or sort is refused by another.
 */
export function toPage<R extends KeysetRow, T>(rows: R[], limit: number, keyset: Keyset, tag: string, map: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  const nextCursor =
    more && last ? Buffer.from(JSON.stringify([tag, ...keyset.keys.map((_, i) => String(last[`k${i}`])), last.kid])).toString('base64url') : null;
  return { items: kept.map(map), nextCursor };
}
