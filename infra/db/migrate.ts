import { Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from './database';
import { migrations } from './migrations';

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

function check({ error, results }: MigrationResultSet): string[] {
  const failed = results?.find((r) => r.status === 'Error');
  if (error) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  return (results ?? []).map((r) => r.migrationName);
}

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return check(await migrator(db).migrateToLatest());
}

/** Undoes the most recent migration. */
export async function migrateDown(db: Db): Promise<string[]> {
  return check(await migrator(db).migrateDown());
}
