#!/usr/bin/env node
/* global fetch, setTimeout, clearTimeout, structuredClone */
// `npm run test:schemathesis`: the portal's OpenAPI document checked as a contract by an outside
// tester. Starts the whole product as `npm start` does (embedded PostgreSQL and Temporal, worker and
// API as their own processes, demo data) on free ports in a fresh folder, then runs Schemathesis
// (pinned in requirements.txt, installed in a virtual environment in the cache) against
// /api/openapi.json once per role: signed out on the public operations, then signed in as each demo
// account on the operations its role may call. Every check, a fixed seed, deterministic generation,
// a budget per role. Any failure fails the run: there is no file of accepted failures.
//
//   node tests/schemathesis/run.mjs [--roles User,public,...] [--budget S | --max-time S] [--max-examples N] [--seed N] [--strict]
//
// Output of each role: tests/.artifacts/schemathesis/<role>.txt (and a JUnit report beside it).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const outDir = join(root, 'tests', '.artifacts', 'schemathesis');
const demo = JSON.parse(readFileSync(join(root, 'infra', 'demo-accounts.json'), 'utf8'));

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
/**
 * Roles in this order: those whose operations change others' data (manager, admin) after the
 * residents, and signed out last: its run sends sign-in after sign-in with made-up credentials, and
 * the per-address limit of sign-in (60 a minute) would then refuse the runs that sign in.
 */
const ALL_ROLES = ['User', 'Tenant', 'HousingAmbassador', 'Manager', 'Admin', 'public'];
const roles = option('roles', ALL_ROLES.join(',')).split(',');
const seed = option('seed', '20261203');
// The budget: --budget seconds for all roles together (about 6 minutes: with the stack's start the
// whole run takes 7-8 on two cores), shared by their number of operations and passed to each run as
// Schemathesis's --max-time, which splits it between the phases (every example, then the coverage
// phase's boundary cases, then fuzzing repeated until the time is spent). A role's share may be set
// directly with --max-time. --max-examples is the fuzzing phase's cases per operation in each round.
const budget = Number(option('budget', '360'));
const maxTimeOption = option('max-time', null);
const maxExamples = option('max-examples', '10');
/** --strict: also the check of hooks.py that a schema-valid request is never refused as `validation`. */
const strict = process.argv.includes('--strict');
/** A role's run that takes longer than this is stopped and fails (a hung request, a stuck API). */
const WATCHDOG_MS = 15 * 60_000;

const say = (line) => process.stdout.write(`[schemathesis] ${line}\n`);

/** The virtual environment with the pinned Schemathesis, made again when requirements.txt changes. */
function ensureVenv() {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const venv = join(cache, 'housing-portal', 'schemathesis-venv');
  const requirements = join(here, 'requirements.txt');
  const want = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  const stamp = join(venv, '.requirements-sha256');
  const bin = join(venv, 'bin', 'schemathesis');
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return bin;
  const python = ['python3.11', 'python3'].find((p) => {
    try {
      execFileSync(p, ['-c', 'import sys; assert sys.version_info >= (3, 11)'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  if (!python) throw new Error('Schemathesis needs Python 3.11 or later (python3.11 or python3 on PATH)');
  say(`making the virtual environment ${venv} (${python}) with requirements.txt`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  execFileSync(python, ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '--require-hashes', '--no-deps', '-r', requirements], { stdio: 'inherit' });
  writeFileSync(stamp, want);
  return bin;
}

/** A free port below the ephemeral range (as tests/helpers/services.ts picks them). */
async function freePort() {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise((done) => {
      const server = createServer();
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
    if (free) return port;
  }
}

/** `npm start` (infra/start.ts) in a fresh folder: everything embedded, demo data seeded. */
async function startPortal() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-schemathesis-'));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as the postgres user when this runs as root
  const [port, pgPort, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), PG_PORT: String(pgPort), TEMPORAL_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(uiPort) };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'PORTAL_SECRET_LEDGER', 'METRICS_PORT', 'NODE_ENV']) delete env[name];
  mkdirSync(outDir, { recursive: true });
  const logFile = join(outDir, 'portal.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/start.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let exited = null;
  const done = new Promise((r) => child.once('exit', (code, signal) => r((exited = signal ?? `code ${code}`))));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    if (exited) throw new Error(`the portal stopped before it served (${exited}); see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`the portal did not serve ${baseUrl}/api/openapi.json within 10 minutes; see ${logFile}`);
    const r = await fetch(`${baseUrl}/api/openapi.json`).catch(() => null); // null: not listening yet
    if (r?.ok && readFileSync(logFile, 'utf8').includes('portal on http')) break;
    if (r && r.status >= 500) throw new Error(`GET /api/openapi.json answered ${r.status}: ${(await r.text()).slice(0, 300)}; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  return {
    baseUrl,
    logFile,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }, 60_000);
        await done;
        clearTimeout(timer);
      }
      log.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The document for one role's run: the operations it tests (signed out the public ones, else those
 * whose x-roles name the role) marked `x-run: true`, and passed to --include-by. The others stay in
 * the document, so a method served at a path for another role is not probed as an undocumented one.
 */
function documentFor(doc, role) {
  const copy = structuredClone(doc);
  let operations = 0;
  for (const item of Object.values(copy.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const roles = op['x-roles'];
      op['x-run'] = role === 'public' ? !roles : Boolean(roles?.includes(role));
      if (op['x-run']) operations++;
    }
  }
  return { doc: copy, operations };
}

/** Figures from Schemathesis's closing lines. */
function figuresOf(output) {
  const cases = /(\d+) generated, (?:(\d+) found (\d+) unique failures|(\d+) passed|.*?)/.exec(output);
  const failures = /Failures:\n([\s\S]*?)\n\n/.exec(output);
  const seconds = /in ([\d.]+)s =+\s*$/m.exec(output);
  const failed = / (\d+) failures?[, ]/.exec(output.split('\n').filter((l) => /^=+ .* in [\d.]+s =+$/.test(l)).pop() ?? '');
  const errors = / (\d+) errors?[, ]/.exec(output.split('\n').filter((l) => /^=+ .* in [\d.]+s =+$/.test(l)).pop() ?? '');
  return {
    generated: cases ? Number(cases[1]) : 0,
    failures: failed ? Number(failed[1]) : 0,
    errors: errors ? Number(errors[1]) : 0,
    kinds: failures ? failures[1].trim() : '',
    seconds: seconds ? Number(seconds[1]) : 0,
  };
}

function runRole(bin, portal, doc, role, maxTime) {
  const { doc: cut, operations } = documentFor(doc, role);
  const docFile = join(outDir, `openapi-${role}.json`);
  writeFileSync(docFile, JSON.stringify(cut));
  const account = demo.accounts.find((a) => a.role === role);
  if (role !== 'public' && !account) throw new Error(`no demo account for ${role} in infra/demo-accounts.json`);
  const env = { ...process.env, PYTHONPATH: here, SCHEMATHESIS_HOOKS: 'hooks', PORTAL_URL: portal.baseUrl, PORTAL_USERNAME: account?.username ?? '', PORTAL_PASSWORD: account?.password ?? '', PORTAL_STRICT: strict ? '1' : '0' };
  const args = [
    '--config-file', join(here, 'schemathesis.toml'),
    'run', docFile,
    '--url', portal.baseUrl,
    '--include-by', '/x-run == true',
    '--checks', 'all',
    '--phases', 'examples,coverage,fuzzing',
    '--generation-deterministic',
    '--seed', seed,
    '--max-examples', maxExamples,
    '--max-time', String(maxTime),
    // One worker: the API shares the two cores, and Python 3.11's parser is not safe to call from
    // several threads at once (Hypothesis parses lambdas' sources while it describes strategies).
    '--workers', '1',
    '--no-color',
    '--report', 'junit',
    '--report-junit-path', join(outDir, `${role}.junit.xml`),
  ];
  say(`${role === 'public' ? 'signed out' : `signed in as ${account.username} (${role})`}: ${operations} operations, ${maxTime} s`);
  return new Promise((done) => {
    // In the artifacts folder: Schemathesis keeps its cache (.schemathesis/) in the working directory.
    const child = spawn(bin, args, { cwd: outDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const watchdog = setTimeout(() => {
      output += `\n[run.mjs] stopped after ${WATCHDOG_MS / 60_000} minutes\n`;
      child.kill('SIGKILL');
    }, WATCHDOG_MS);
    child.once('exit', (code) => {
      clearTimeout(watchdog);
      writeFileSync(join(outDir, `${role}.txt`), output);
      done({ role, operations, code, output, ...figuresOf(output) });
    });
  });
}

let portal;
let status = 0;
const results = [];
// Stopped from outside (Ctrl-C, CI's time limit): the portal's processes are stopped too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    say(`${signal}: stopping the portal`);
    void Promise.resolve(portal?.stop()).finally(() => process.exit(1));
  });
}
try {
  const bin = ensureVenv();
  say(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim());
  const started = Date.now();
  portal = await startPortal();
  say(`portal on ${portal.baseUrl} in ${Math.round((Date.now() - started) / 1000)} s`);
  const doc = await (await fetch(`${portal.baseUrl}/api/openapi.json`)).json();
  const counts = Object.fromEntries(roles.map((role) => [role, documentFor(doc, role).operations]));
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  for (const role of roles) {
    const maxTime = maxTimeOption ? Number(maxTimeOption) : Math.max(20, Math.round((budget * counts[role]) / total));
    const result = await runRole(bin, portal, doc, role, maxTime);
    results.push(result);
    const ok = result.code === 0;
    say(`${role}: ${ok ? 'passed' : 'FAILED'}: ${result.generated} test cases, ${result.failures} failures, ${result.errors} errors, ${result.seconds} s`);
    if (!ok) {
      status = 1;
      const text = result.output;
      const from = text.search(/^=+ (FAILURES|ERRORS) =+$/m);
      const shown = (from >= 0 ? text.slice(from) : text).split('\n');
      process.stdout.write(`${shown.slice(0, 300).join('\n')}\n`);
      if (shown.length > 300) say(`... ${shown.length - 300} more lines in ${join(outDir, `${role}.txt`)}`);
    }
  }
} catch (error) {
  status = 1;
  console.error(`[schemathesis] ${error instanceof Error ? error.message : error}`);
} finally {
  await portal?.stop();
}
const passed = results.filter((r) => r.code === 0).length;
say('role, operations, test cases, failures, errors, seconds');
for (const r of results) say(`  ${r.role}, ${r.operations}, ${r.generated}, ${r.failures}, ${r.errors}, ${r.seconds}`);
console.log(`\nschemathesis: ${passed} passed, ${roles.length - passed} failed`);
process.exit(status);
