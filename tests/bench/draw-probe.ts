/**
 * Where the lottery draw's time goes (100,000 applications drawn end to end in ≤ 10 s).
 * Starts only an embedded PostgreSQL, seeds the bench's lottery (tests/bench/seed.ts) once into a
 * template database, then for each trial copies the template into a fresh database and calls the
 * `drawLottery` activity directly, timing every statement it sends (select, each update, commit)
 * and the ranking in between. The pure ranking function is timed on its own too.
 *
 *   node --import tsx tests/bench/draw-probe.ts [--applications 100000] [--trials 3] [--keep] [--compare <module>]
 *
 * `--compare activities/lottery-old.ts` (a module exporting `drawLottery(db, input)`, e.g. an earlier
 * version from `git show`) alternates trials between it and the current activity, so both run
 * under the same load on a shared machine.
 *
 * Prints figures, asserts nothing but that every trial drew the same result.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Kysely, PostgresDialect, sql, type LogEvent } from 'kysely';
import { drawLottery } from '../../activities/lottery';
import { createKeyRing } from '../../infra/crypto';
import { dataCipher, useDataKeys } from '../../infra/data-keys';
import { createPool, type Database, type Db } from '../../infra/db/database';
import { migrateToLatest } from '../../infra/db/migrate';
import { startEmbeddedPostgres } from '../../infra/embedded';
import { drawLottery as rankEntries } from '../../infra/lottery/draw';
import { seedDemoData } from '../../infra/seed';
import { freePort } from '../helpers/services';
import { growLottery, seedOpportunities } from './seed';

const { values: args } = parseArgs({
  options: {
    applications: { type: 'string', default: '100000' },
    trials: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    compare: { type: 'string' },
  },
});
const N = Number(args.applications);
const TRIALS = Number(args.trials);
const say = (line: string) => process.stdout.write(`[draw-probe] ${line}\n`);
const load = () => `load ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${availableParallelism()} cores`;

/** A database with every statement timed (kysely's log also sees begin and commit). */
function openDb(url: string, events: LogEvent[], connections = 4): Db {
  const pool = createPool({ DATABASE_URL: url, PG_POOL_MAX: connections, PG_STATEMENT_TIMEOUT_MS: 600_000, PG_SSL: false });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: (event) => void events.push(event) });
}

function label(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  if (/^update applications/i.test(s)) return 'update applications';
  if (/^select .* from "applications"/i.test(s)) return 'select applications';
  if (/^(begin|commit|rollback)/i.test(s)) return s.split(' ')[0]!.toLowerCase();
  return s.slice(0, 60);
}

/** CPU time (user + system) of a PostgreSQL backend, from /proc (Linux; the probe runs PostgreSQL itself). */
function backendCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return Number.NaN;
  }
}

async function main() {
  const root = await mkdtemp(join(tmpdir(), 'portal-draw-probe-'));
  await chmod(root, 0o755); // PostgreSQL runs as the postgres user when run as root
  useDataKeys(createKeyRing(randomBytes(32).toString('base64'), ''));
  const pg = await startEmbeddedPostgres(join(root, 'pg', 'data'), await freePort());
  say(`PostgreSQL in ${root}; ${load()}`);
  try {
    await pg.createDatabase('probe_template');
    const seedDb = openDb(pg.url('probe_template'), []);
    let lotteryId: string;
    try {
      await migrateToLatest(seedDb);
      await seedDemoData(seedDb, new Date());
      const seeded = performance.now();
      const seed = await seedOpportunities(seedDb, new Date());
      await growLottery(seedDb, seed, N, new Date());
      lotteryId = seed.lotteryId;
      say(`seeded ${seed.applications} applications in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
      const indexes = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where tablename = 'applications' order by indexname`.execute(seedDb);
      say(`applications has ${indexes.rows.length} indexes:`);
      for (const i of indexes.rows) say(`  ${i.indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON public\.applications USING /, '$1')}  (${i.indexname})`);
      await sql`checkpoint`.execute(seedDb);
    } finally {
      await seedDb.destroy();
    }

    // The pure function on the same list, apart from the database.
    {
      const db = openDb(pg.url('probe_template'), []);
      const lottery = await db.selectFrom('opportunity_lotteries').selectAll().where('opportunity_id', '=', lotteryId).executeTakeFirstOrThrow();
      const rows = await db.selectFrom('applications').select(['id', 'log_number', 'lottery_groups']).where('opportunity_id', '=', lotteryId).where('status', '=', 'in_lottery').execute();
      await db.destroy();
      const seedText = dataCipher().decrypt(lottery.seed_encrypted);
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const cpu = process.cpuUsage();
        const r = rankEntries({ seed: seedText, publicValue: 'probe', entries: rows.map((x) => ({ logNumber: x.log_number ?? x.id, groups: x.lottery_groups })), setAsides: lottery.set_asides, units: lottery.units });
        const { user, system } = process.cpuUsage(cpu);
        say(`rank only: ${r.ranked.length} entries in ${(performance.now() - started).toFixed(0)} ms (${((user + system) / 1000).toFixed(0)} ms CPU)`);
      }
    }

    type Draw = typeof drawLottery;
    const other = args.compare ? ((await import(join(process.cwd(), args.compare))) as { drawLottery: Draw }).drawLottery : undefined;
    const hashes = new Set<string>();
    for (let t = 1; t <= TRIALS; t++) {
      const name = `probe_trial_${t}`;
      await pg.createDatabase(name, 'probe_template');
      const events: LogEvent[] = [];
      // One connection, so the draw runs on the backend whose CPU time is read (steadier than the wall clock on a shared machine).
      const db = openDb(pg.url(name), events, 1);
      try {
        await sql`checkpoint`.execute(db);
        const backend = (await sql<{ pid: number; lsn: string }>`select pg_backend_pid() as pid, pg_current_wal_lsn()::text as lsn`.execute(db)).rows[0]!;
        const backendCpu0 = backendCpuMs(backend.pid);
        events.length = 0;
        const before = load();
        const started = performance.now();
        const cpu = process.cpuUsage();
        const which = other && t % 2 === 1 ? args.compare! : 'activities/lottery.ts';
        const summary = await (which === args.compare ? other! : drawLottery)(db, { opportunityId: lotteryId, publicValue: '07 19 23 31 42 witnessed' });
        const totalMs = performance.now() - started;
        const { user, system } = process.cpuUsage(cpu);
        const pgCpu = backendCpuMs(backend.pid) - backendCpu0;
        const wal = (await sql<{ bytes: string }>`select (pg_current_wal_lsn() - ${backend.lsn}::pg_lsn)::text as bytes`.execute(db)).rows[0]!.bytes;
        hashes.add(`${summary.listHash} ${summary.resultHash}`);
        const byLabel = new Map<string, { n: number; ms: number }>();
        for (const e of events) {
          const k = label(e.query.sql);
          const cur = byLabel.get(k) ?? { n: 0, ms: 0 };
          cur.n += 1;
          cur.ms += e.queryDurationMillis;
          byLabel.set(k, cur);
        }
        const sqlMs = [...byLabel.values()].reduce((a, b) => a + b.ms, 0);
        say(`trial ${t} (${which}): ${summary.entries} drawn in ${totalMs.toFixed(0)} ms (PostgreSQL backend CPU ${pgCpu} ms, WAL ${(Number(wal) / 1e6).toFixed(0)} MB; node CPU ${((user + system) / 1000).toFixed(0)} ms; outside SQL ${(totalMs - sqlMs).toFixed(0)} ms) [${before}]`);
        for (const [k, v] of byLabel) say(`    ${v.ms.toFixed(0).padStart(6)} ms  ${String(v.n).padStart(3)}×  ${k}`);
        const again = performance.now();
        const retried = await drawLottery(db, { opportunityId: lotteryId, publicValue: 'another value' });
        say(`    retried draw answered the stored result in ${(performance.now() - again).toFixed(0)} ms: ${retried.resultHash === summary.resultHash ? 'same' : 'DIFFERENT'}`);
        const check = await sql<{ status: string; n: string; ranked: string }>`
          select status, count(*) as n, count(lottery_rank) as ranked from applications where opportunity_id = ${lotteryId} group by status`.execute(db);
        say(`    rows: ${check.rows.map((r) => `${r.status} ${r.n} (${r.ranked} ranked)`).join(', ')}`);
      } finally {
        await db.destroy();
      }
      const admin = openDb(pg.url('postgres'), []);
      await sql`drop database ${sql.id(name)}`.execute(admin);
      await admin.destroy();
    }
    if (TRIALS > 0) say(hashes.size === 1 ? `every trial drew the same result: ${[...hashes][0]}` : `TRIALS DIFFER: ${[...hashes].join(' | ')}`);
  } finally {
    await pg.stop();
    if (args.keep) say(`data kept in ${root}`);
    else await rm(root, { recursive: true, force: true });
  }
}

await main();
