import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, sql, type ColumnType, type Generated, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { ApplicationStatus, PendingTask, TimelineStep, Role } from '../../domain';
import type { AmbassadorTables, OrganizationAmbassadorColumns } from './schema/ambassador';
import type { IdentityTables, UserIdentityColumns } from './schema/identity';
import type { RecertificationTables } from './schema/recertification';
import type { RelocationTables } from './schema/relocation';
import type { TenancyTables } from './schema/tenancy';
import type { LetterTables } from './schema/letters';
import type { ProfileLockTables } from './schema/profile-lock';
import type { HouseholdTables } from './schema/household';
import type { SharedTables } from './schema/shared';
import type { SecurityTables } from './schema/security';
import type { SupportTables } from './schema/support';
import type { BulkTables } from './schema/bulk';
import type { OperatorTables } from './schema/operator';
import type { TranslationTables } from './schema/translation';
import type { ApplicationLotteryColumns, LotteryTables, OpportunityLotteryColumns } from './schema/lottery';
import type { WaitlistTables } from './schema/waitlist';
import type { ApplicationPaperColumns, HouseholdPaperColumns, PaperTables } from './schema/paper';
import type { ApplicationLeaseUpColumns, LeaseUpTables, OpportunityLeaseUpColumns } from './schema/lease-up';
import type { ListingAlertTables, OpportunityAlertColumns } from './schema/listing-alerts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;
/** numeric columns come back as strings from pg; written as numbers. */
type Numeric = ColumnType<string, number | string, number | string>;

export interface OrganizationTable extends OrganizationAmbassadorColumns {
  id: Generated<string>;
  name: string;
  slug: string;
  email: string | null;
  phone: string | null;
  /** Days a closed application's personal data is kept (the retention sweep). */
  retention_days: Generated<number>;
  created_at: Generated<Date>;
}

export interface UserTable extends UserIdentityColumns {
  id: Generated<string>;
  username: string;
  email: string;
  phone_number: string | null;
  first_name: string;
  last_name: string;
  role: Role;
  password_hash: string;
  organization_id: string | null;
  email_verified: Generated<boolean>;
  mfa_enabled: Generated<boolean>;
  preferred_language: Generated<string>;
  font_size: Generated<string>;
  status: Generated<string>;
  created_at: Generated<Date>;
}

export interface HouseholdTable extends HouseholdPaperColumns {
  id: Generated<string>;
  head_user_id: string;
  organization_id: string | null;
  household_size: Generated<number>;
  profile_completion: Generated<number>;
  created_at: Generated<Date>;
}

export interface OpportunityTable extends OpportunityLeaseUpColumns, OpportunityLotteryColumns, OpportunityAlertColumns {
  id: Generated<string>;
  organization_id: string;
  name: string;
  kind: 'rental' | 'ownership';
  address: string;
  description: Generated<string>;
  amenities: Json<string[]>;
  requirements: Json<{ amiPercent: number; layout: string; monthlyRent: number }[]>;
  income_ranges: Json<{ householdSize: number; min: number; max: number }[]>;
  /** Where a paper application is mailed; empty when not given. */
  mailing_address: Generated<string>;
  /** Days after the deadline when mail postmarked by the deadline is still entered; the list freezes at their end. */
  mail_grace_days: Generated<number>;
  lottery_end_date: ColumnType<Date, string, string>;
  published: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface UnitTable {
  id: Generated<string>;
  opportunity_id: string;
  unit_number: string;
  bedroom_type: string;
  address: string;
  accessibility: Json<string[]>;
  monthly_rent: Numeric;
  ami_percent: number;
}

export interface ApplicationLogNumberTable {
  application_id: string;
  number: Generated<string>;
  created_at: Generated<Date>;
}

export interface ApplicationTable extends ApplicationLeaseUpColumns, ApplicationLotteryColumns, ApplicationPaperColumns {
  id: string;
  workflow_id: string;
  household_id: string;
  opportunity_id: string;
  organization_id: string;
  applicant_user_id: string;
  log_number: string | null;
  status: ApplicationStatus;
  current_step: TimelineStep;
  pending_tasks: Json<PendingTask[]>;
  household_size: number;
  /** Only rows written before the declared income was sealed; null once sealed. */
  household_income: ColumnType<string | null, number | null | undefined, number | null>;
  /** The declared income, sealed (infra/data-keys.ts sealNumber). */
  household_income_encrypted: string | null;
  /** When the retention sweep removed its personal data (null: kept). */
  purged_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  applied_at: Timestamp;
  state_updated_at: Timestamp;
  state_version: number;
  projected_at: Generated<Date>;
}

/**
 * Every table, typed once. Each area keeps its own tables in `infra/db/schema/<area>.ts` as an
 * interface `<Area>Tables` and is joined in here with one `extends` entry.
 */
export interface Database extends ProfileLockTables, SharedTables, LeaseUpTables, IdentityTables, TenancyTables, RecertificationTables, RelocationTables, HouseholdTables, SecurityTables, LotteryTables, WaitlistTables, AmbassadorTables, SupportTables, LetterTables, BulkTables, OperatorTables, TranslationTables, PaperTables, ListingAlertTables {
  organizations: OrganizationTable;
  users: UserTable;
  households: HouseholdTable;
  opportunities: OpportunityTable;
  units: UnitTable;
  application_log_numbers: ApplicationLogNumberTable;
  applications: ApplicationTable;
}

export type Db = Kysely<Database>;

// Dates stay calendar dates ('2026-12-31'), not shifted by the server's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);

/** What starts the text of a statement `prepared` marks. */
const PREPARED_MARK = '/* prepared */';

/**
 * Marks a statement of a hot path to be sent as a named prepared statement: PostgreSQL parses and
 * plans it once per connection (then reuses its plan, or a generic one once it costs no more),
 * instead of on every call, where planning a statement of a few CTEs costs more than running it.
 * Only statements whose text is fixed belong here (the name is the text's hash, so another text is
 * another statement, never a clash), since each one stays prepared for the connection's life.
 */
export function prepared<T>(query: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(PREPARED_MARK)} ${query}`;
}

const preparedNames = new Map<string, string>();
const preparedName = (text: string) => {
  let name = preparedNames.get(text);
  if (!name) preparedNames.set(text, (name = `portal_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`));
  return name;
};

/** Sends the statements `prepared` marked as named ones (kysely passes the text and the values). */
function sendMarkedAsPrepared(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) =>
    typeof text === 'string' && text.startsWith(PREPARED_MARK) && Array.isArray(rest[0])
      ? query({ name: preparedName(text), text, values: rest[0] }, ...rest.slice(1))
      : query(text, ...rest);
}

export function createPool(
  config: Pick<Config, 'DATABASE_URL' | 'PG_POOL_MAX' | 'PG_STATEMENT_TIMEOUT_MS' | 'PG_SSL'> & Partial<Pick<Config, 'PG_PREPARED_STATEMENTS'>>,
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.DATABASE_URL,
    max: config.PG_POOL_MAX,
    statement_timeout: config.PG_STATEMENT_TIMEOUT_MS,
    connectionTimeoutMillis: 10_000,
    ssl: config.PG_SSL ? { rejectUnauthorized: true } : undefined,
  });
  // A connection dropped by the server (PostgreSQL restarting, a failover) is reported as an 'error'
  // event: by the pool for an idle connection, by the client itself for one checked out between two
  // statements of a transaction. Unheard, either would end the process. The pool discards the
  // connection, the next query connects anew, and a statement that was running fails on its own
  // (the API answers it 503).
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    if (config.PG_PREPARED_STATEMENTS ?? true) sendMarkedAsPrepared(client);
  });
  return pool;
}

export function createDb(config: Parameters<typeof createPool>[0]): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: createPool(config) }) });
}

/** Fails with one line naming the database when it cannot be reached. */
export async function assertDatabaseReachable(db: Db, url: string): Promise<void> {
  try {
    await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
  } catch (error) {
    const where = safeUrl(url);
    throw new Error(`cannot reach PostgreSQL at DATABASE_URL (${where}): ${describe(error)}`, { cause: error });
  }
}

export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'unparseable URL';
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
    return message ? `${error.code} ${message}` : error.code;
  }
  return error instanceof Error ? error.message : String(error);
}
