import type { Migration } from 'kysely';
import * as foundation from './2026-11-22T0000-foundation';

/** Every migration, in order. Listed statically so the bundle and tsx need no folder scanning. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0000-foundation': foundation,
};
