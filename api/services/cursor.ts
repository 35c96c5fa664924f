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
  type: 'text' | 'timestamptz' | 'bigint' | 'integer' | 'boolean';
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
      parsed.slice(1).every((v) => typeof v === 'string' && v.length <= 300) &&
      [...keyset.keys.map((k) => k.type), keyset.idType].every((type, i) => castable(type, parsed[i + 1] as string))
    ) {
      return parsed.slice(1) as string[];
    }
  } catch {
    // falls through to the refusal
  }
  throw new HttpError(400, 'invalidCursor');
}

const TIMESTAMP_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)([+-]\d{2})(?::(\d{2}))?$/;

/**
 * Whether PostgreSQL can cast the value back to its type: a cursor made by hand with a value that
 * is not a timestamp or a uuid is a 400, not a failed query (500).
 */
function castable(type: SortKey['type'] | Keyset['idType'], value: string): boolean {
  switch (type) {
    case 'text':
      return true;
    case 'uuid':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
    case 'bigint':
      return /^-?\d{1,18}$/.test(value);
    case 'integer':
      return /^-?\d{1,9}$/.test(value);
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'timestamptz': {
      if (value === 'infinity' || value === '-infinity') return true;
      // The text form of timestamptz::text (DateStyle ISO), e.g. 2026-11-23 15:56:33.627+00.
      const m = TIMESTAMP_TEXT.exec(value);
      if (!m || !Number.isFinite(Date.parse(`${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}`))) return false;
      // Date.parse rolls 30 February over to March; PostgreSQL refuses it.
      const [y, mo, d] = m[1]!.split('-').map(Number) as [number, number, number];
      return new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d;
    }
  }
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
