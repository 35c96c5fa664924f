/**
 * Finds or builds the external binaries the product and the tests need:
 *
 * - the Temporal CLI (`temporal server start-dev`), built with `go install`;
 * - MinIO (S3-compatible blob store for the integration tests), built with `go install`;
 * - the Java time-skipping test server, fetched from Maven Central with `mvn` and wrapped in a
 *   shell script that `@temporalio/testing` runs as an `existing-path` executable.
 *
 * Everything is cached outside the repository in `${XDG_CACHE_HOME:-~/.cache}/housing-portal/`.
 * Builds take a lock file, so two processes (two test runs, or a test run and `tsx infra/tools.ts`)
 * never build the same thing at once; the second waits and reuses the result.
 *
 * CLI: `tsx infra/tools.ts all|temporal|minio|test-server` prints the resolved paths.
 */
import { execFile, spawn } from 'node:child_process';
import { constants, createWriteStream, realpathSync } from 'node:fs';
import { access, chmod, mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Temporal CLI tag; later tags carry a `replace` directive that `go install pkg@version` refuses. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
/**
 * MinIO module version. MinIO's release tags are not semver, so `@latest` resolves to a pseudo-version
 * of the default branch; this is the one `@latest` resolved to when this was written, pinned so every
 * machine builds the same (known good) source.
 */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';
/** `io.temporal:temporal-test-server` on Maven Central (released with the Java SDK). */
export const TEMPORAL_TEST_SERVER_VERSION = '1.38.0';
const MAVEN_DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
/** Matches the slf4j-api 1.7.x the test server depends on. */
const SLF4J_NOP_VERSION = '1.7.36';
/** First line of <cacheDir>/temporal-test-server/installed; a different value makes the next call fetch again. */
const TEST_SERVER_INSTALL_ID = `${TEMPORAL_TEST_SERVER_VERSION} slf4j-nop-${SLF4J_NOP_VERSION}`;

const TEMPORAL_CLI_PACKAGE = 'github.com/temporalio/cli/cmd/temporal';
const MINIO_PACKAGE = 'github.com/minio/minio';

/** `${XDG_CACHE_HOME:-~/.cache}/housing-portal` */
export function cacheDir(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'housing-portal');
}

function cacheBin(): string {
  return path.join(cacheDir(), 'bin');
}

// ---------------------------------------------------------------------------------------------
// Public API

/** Path to a `temporal` CLI binary, building Temporal CLI v1.5.1 on first use. */
export async function findTemporalCli(): Promise<string> {
  return findOrBuildGoBinary({
    binary: 'temporal',
    envVar: 'TEMPORAL_CLI_PATH',
    label: `Temporal CLI ${TEMPORAL_CLI_VERSION}`,
    module: `${TEMPORAL_CLI_PACKAGE}@${TEMPORAL_CLI_VERSION}`,
  });
}

/** Path to a `minio` server binary, building the pinned MinIO version on first use. */
export async function findMinio(): Promise<string> {
  return findOrBuildGoBinary({
    binary: 'minio',
    envVar: 'MINIO_PATH',
    label: `MinIO ${MINIO_VERSION}`,
    module: `${MINIO_PACKAGE}@${MINIO_VERSION}`,
  });
}

/**
 * Path to an executable that starts the Java time-skipping test server. `@temporalio/testing` runs it
 * as `<path> <port> [extraArgs...]` (stdin closed) and gives it 5 seconds to accept gRPC connections;
 * it stops it with SIGKILL, so the wrapper `exec`s java to make the JVM the process that is killed.
 *
 * Use it as `TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } })`.
 */
export async function findTemporalTestServer(): Promise<string> {
  const fromEnv = await fromEnvVar('TEMPORAL_TEST_SERVER_PATH');
  if (fromEnv) return fromEnv;
  if (await testServerIsInstalled()) return testServerWrapperPath();
  return withLock('temporal-test-server', async () => {
    if (await testServerIsInstalled()) return testServerWrapperPath();
    await installTestServer();
    return testServerWrapperPath();
  });
}

// ---------------------------------------------------------------------------------------------
// Go-built binaries

interface GoBinary {
  binary: string;
  envVar: string;
  label: string;
  module: string;
}

async function findOrBuildGoBinary(spec: GoBinary): Promise<string> {
  const fromEnv = await fromEnvVar(spec.envVar);
  if (fromEnv) return fromEnv;

  const onPath = await findOnPath(spec.binary);
  if (onPath) return onPath;

  const cached = path.join(cacheBin(), spec.binary);
  if (await isExecutableFile(cached)) return cached;

  const goBin = await goInstallDir();
  if (goBin) {
    const candidate = path.join(goBin, spec.binary);
    if (await isExecutableFile(candidate)) return candidate;
  }

  return withLock(spec.binary, async () => {
    if (await isExecutableFile(cached)) return cached; // built by another process while we waited
    await goInstall(spec, cached);
    return cached;
  });
}

/** `$(go env GOPATH)/bin`, or undefined when go is not installed. */
async function goInstallDir(): Promise<string | undefined> {
  const go = await findGo();
  if (!go) return undefined;
  try {
    const { stdout } = await run(go, ['env', 'GOPATH']);
    const first = stdout.trim().split(path.delimiter)[0];
    return first ? path.join(first, 'bin') : undefined;
  } catch {
    return undefined;
  }
}

async function findGo(): Promise<string | undefined> {
  const onPath = await findOnPath('go');
  if (onPath) return onPath;
  // The official tarball installs here; non-login shells often lack it on PATH.
  const usual = '/usr/local/go/bin/go';
  return (await isExecutableFile(usual)) ? usual : undefined;
}

/** The Temporal CLI v1.5.1 go.mod says `go 1.25.0`; MinIO's says 1.24. */
const MIN_GO_VERSION = [1, 25];

async function goVersion(go: string): Promise<number[] | undefined> {
  try {
    const { stdout } = await run(go, ['env', 'GOVERSION']);
    const match = /^go(\d+)\.(\d+)/.exec(stdout.trim());
    return match ? [Number(match[1]), Number(match[2])] : undefined;
  } catch {
    return undefined;
  }
}

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

async function goInstall(spec: GoBinary, destination: string): Promise<void> {
  const go = await findGo();
  if (!go) {
    throw new Error(
      `${spec.label} is not installed and Go is not available to build it: install Go 1.25 or newer (https://go.dev/dl/) or set ${spec.envVar} to an existing ${spec.binary} binary`,
    );
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  const version = await goVersion(go);
  if (version && compareVersions(version, MIN_GO_VERSION) < 0) {
    if (compareVersions(version, [1, 21]) < 0) {
      throw new Error(
        `Go ${version.join('.')} is too old to build ${spec.label}: install Go ${MIN_GO_VERSION.join('.')} or newer (https://go.dev/dl/) or set ${spec.envVar} to an existing ${spec.binary} binary`,
      );
    }
    // Go 1.21+ can fetch the newer toolchain the module asks for, unless told to stay local.
    env.GOTOOLCHAIN = 'auto';
  }
  const buildDir = path.join(cacheDir(), 'build', `${spec.binary}-${process.pid}`);
  const logFile = path.join(cacheDir(), 'logs', `${spec.binary}-build.log`);
  await rm(buildDir, { recursive: true, force: true });
  await mkdir(buildDir, { recursive: true });
  await mkdir(path.dirname(destination), { recursive: true });

  process.stderr.write(`building ${spec.label} with go install (first run only, a few minutes)...\n`);
  const started = Date.now();
  try {
    // GOBIN points at a private directory so a half-copied binary never appears in the cache;
    // the finished binary is renamed into place.
    await runLogged(go, ['install', spec.module], logFile, {
      cwd: buildDir,
      env: { ...env, GOBIN: buildDir },
    });
    const built = path.join(buildDir, spec.binary);
    if (!(await isExecutableFile(built))) {
      throw new Error(`go install finished but ${built} is missing (see ${logFile})`);
    }
    await rename(built, destination);
  } catch (error) {
    throw new Error(`building ${spec.label} failed: ${firstLine(error)}${await logTail(logFile)}`, { cause: error });
  } finally {
    await rm(buildDir, { recursive: true, force: true });
  }
  process.stderr.write(`built ${destination} in ${Math.round((Date.now() - started) / 1000)}s\n`);
}

// ---------------------------------------------------------------------------------------------
// Java time-skipping test server

function testServerDir(): string {
  return path.join(cacheDir(), 'temporal-test-server');
}

function testServerLibDir(): string {
  return path.join(testServerDir(), 'lib');
}

function testServerWrapperPath(): string {
  return path.join(cacheBin(), 'temporal-test-server');
}

/** Written last by an install: TEST_SERVER_INSTALL_ID, then the java path. */
function testServerMarkerPath(): string {
  return path.join(testServerDir(), 'installed');
}

/** AppCDS archive of the classes the server loads at start (halves JVM start-up time). */
function testServerClassArchivePath(): string {
  return path.join(testServerDir(), 'classes.jsa');
}

async function testServerIsInstalled(): Promise<boolean> {
  if (!(await isExecutableFile(testServerWrapperPath()))) return false;
  try {
    // Line 1: what was installed; line 2: the java the wrapper runs (it must still exist).
    const [installed, java] = (await readFile(testServerMarkerPath(), 'utf8')).split('\n');
    return installed === TEST_SERVER_INSTALL_ID && Boolean(java) && (await isExecutableFile(java!));
  } catch {
    return false;
  }
}

async function findJava(): Promise<string | undefined> {
  const javaHome = process.env.JAVA_HOME;
  if (javaHome) {
    const candidate = path.join(javaHome, 'bin', 'java');
    if (await isExecutableFile(candidate)) return candidate;
  }
  return findOnPath('java');
}

async function installTestServer(): Promise<void> {
  const java = await findJava();
  const mvn = await findOnPath('mvn');
  if (!java || !mvn) {
    const missing = [!java && 'Java 11 or newer', !mvn && 'Maven (mvn)'].filter(Boolean).join(' and ');
    throw new Error(
      `the Temporal test server needs ${missing}: install them (Debian: apt-get install default-jre-headless maven) or set TEMPORAL_TEST_SERVER_PATH to a temporal-test-server executable`,
    );
  }

  const dir = testServerDir();
  const lib = testServerLibDir();
  const staging = path.join(dir, `lib.tmp-${process.pid}`);
  const logFile = path.join(cacheDir(), 'logs', 'temporal-test-server-fetch.log');
  await mkdir(dir, { recursive: true });
  await rm(testServerMarkerPath(), { force: true });
  await rm(staging, { recursive: true, force: true });

  const pom = path.join(dir, 'pom.xml');
  await writeFile(pom, testServerPom(), 'utf8');

  process.stderr.write(
    `fetching Temporal test server ${TEMPORAL_TEST_SERVER_VERSION} from Maven Central (first run only)...\n`,
  );
  const started = Date.now();
  try {
    await runLogged(
      mvn,
      [
        '-B',
        '-f',
        pom,
        `${MAVEN_DEPENDENCY_PLUGIN}:copy-dependencies`,
        `-DoutputDirectory=${staging}`,
        '-DincludeScope=runtime',
      ],
      logFile,
      { cwd: dir },
    );
    const jars = (await readdir(staging)).filter((name) => name.endsWith('.jar'));
    if (!jars.some((name) => name.startsWith('temporal-test-server-'))) {
      throw new Error(`Maven finished but no temporal-test-server jar is in ${staging}`);
    }
    await rm(lib, { recursive: true, force: true });
    await rename(staging, lib);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`fetching the Temporal test server failed: ${firstLine(error)}${await logTail(logFile)}`, { cause: error });
  }

  const archive = testServerClassArchivePath();
  const haveArchive = await dumpClassArchive(java, lib, archive);
  await writeExecutable(testServerWrapperPath(), testServerWrapper(java, lib, haveArchive ? archive : undefined));
  await writeFile(testServerMarkerPath(), `${TEST_SERVER_INSTALL_ID}\n${java}\n`, 'utf8');
  process.stderr.write(
    `installed ${testServerWrapperPath()} in ${Math.round((Date.now() - started) / 1000)}s\n`,
  );
}

/** JVM flags shared by the archive dump and the wrapper (CDS needs the same classpath and GC). */
const JVM_FLAGS = ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'];

/**
 * Starts the server once with -XX:ArchiveClassesAtExit, waits for its port, and stops it with SIGTERM
 * so the JVM writes the archive on exit. Best effort: returns false (no archive) on any failure.
 */
async function dumpClassArchive(java: string, lib: string, archive: string): Promise<boolean> {
  await rm(archive, { force: true });
  const logFile = path.join(cacheDir(), 'logs', 'temporal-test-server-cds.log');
  await mkdir(path.dirname(logFile), { recursive: true });
  const log = await open(logFile, 'w');
  try {
    const port = await freePort();
    const child = spawn(
      java,
      [
        `-XX:ArchiveClassesAtExit=${archive}`,
        ...JVM_FLAGS,
        '-cp',
        `${lib}/*`,
        'io.temporal.testserver.TestServer',
        String(port),
      ],
      { stdio: ['ignore', log.fd, log.fd] },
    );
    const exited = new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(null));
      child.once('exit', (code) => resolve(code));
    });
    let up = false;
    for (let i = 0; i < 300 && child.exitCode === null && !up; i += 1) {
      await delay(100);
      up = await canConnect(port);
    }
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    return up && (await isFile(archive));
  } catch {
    return false;
  } finally {
    await log.close();
  }
}

function testServerPom(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by infra/tools.ts: only used to fetch the Temporal test server and its runtime dependencies. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.housing-portal</groupId>
  <artifactId>temporal-test-server-fetch</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>${TEMPORAL_TEST_SERVER_VERSION}</version>
    </dependency>
    <!-- Binds slf4j to a no-op logger: silences the "Failed to load class StaticLoggerBinder" warning. -->
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-nop</artifactId>
      <version>${SLF4J_NOP_VERSION}</version>
    </dependency>
  </dependencies>
</project>
`;
}

/**
 * The wrapper receives `<port> [extraArgs...]` from `@temporalio/testing` and passes them on. `exec`
 * replaces the shell so the SDK's SIGKILL reaches the JVM. The JVM flags trade peak speed for a fast
 * start, since the SDK only waits 5 seconds for the server to answer.
 */
function testServerWrapper(java: string, lib: string, archive: string | undefined): string {
  // -Xshare:auto falls back silently to no archive if it does not match the JVM (e.g. after an upgrade).
  const cds = archive ? `-XX:SharedArchiveFile=${shQuote(archive)} -Xshare:auto ` : '';
  return `#!/bin/sh
# Generated by infra/tools.ts: Temporal time-skipping test server ${TEMPORAL_TEST_SERVER_VERSION}.
# Usage: temporal-test-server <port> [args...]   (what @temporalio/testing passes)
exec ${shQuote(java)} ${cds}-Xlog:disable -Xlog:all=error:stderr ${JVM_FLAGS.join(' ')} \\
  -cp ${shQuote(`${lib}/*`)} io.temporal.testserver.TestServer "$@"
`;
}

// ---------------------------------------------------------------------------------------------
// Lock file: one builder per artifact across processes.

const LOCK_WAIT_MS = 60 * 60 * 1000;

async function withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  const lockPath = path.join(cacheDir(), 'locks', `${name}.lock`);
  await mkdir(path.dirname(lockPath), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let announced = false;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`, 'utf8');
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await lockIsStale(lockPath)) {
        await rm(lockPath, { force: true });
        continue;
      }
      if (!announced) {
        process.stderr.write(`waiting for another process that is preparing ${name} (lock ${lockPath})...\n`);
        announced = true;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for the lock ${lockPath}; delete it if no build is running`, { cause: error });
      }
      await delay(1000);
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockPath, { force: true });
  }
}

async function lockIsStale(lockPath: string): Promise<boolean> {
  let content: string;
  let ageMs: number;
  try {
    content = await readFile(lockPath, 'utf8');
    ageMs = Date.now() - (await stat(lockPath)).mtimeMs;
  } catch {
    return false; // vanished; the next open() attempt decides
  }
  const pid = Number.parseInt(content.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0) return ageMs > 10_000; // holder crashed before writing its pid
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

async function fromEnvVar(name: string): Promise<string | undefined> {
  const value = process.env[name];
  if (!value) return undefined;
  const resolved = path.resolve(value);
  if (!(await isExecutableFile(resolved))) {
    throw new Error(`${name}=${value} is not an executable file`);
  }
  return resolved;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function run(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(error);
      else resolve({ stdout, stderr });
    });
  });
}

/** Runs a command with its output going to a log file (stdin closed); rejects on a non-zero exit. */
async function runLogged(
  file: string,
  args: string[],
  logFile: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<void> {
  await mkdir(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'w' });
  await new Promise<void>((resolve, reject) => log.once('open', () => resolve()).once('error', reject));
  log.write(`$ ${[file, ...args].join(' ')}\n`);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(file, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
      child.once('error', reject);
      child.once('close', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(`${path.basename(file)} exited with ${signal ?? `code ${code}`} (log: ${logFile})`));
      });
    });
  } finally {
    await new Promise<void>((resolve) => log.end(() => resolve()));
  }
}

async function logTail(logFile: string, lines = 15): Promise<string> {
  try {
    const text = await readFile(logFile, 'utf8');
    const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
    return tail ? `\n--- last lines of ${logFile} ---\n${tail}` : '';
  } catch {
    return '';
  }
}

async function writeExecutable(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp-${process.pid}`;
  await writeFile(temp, content, { encoding: 'utf8', mode: 0o755 });
  await chmod(temp, 0o755);
  await rename(temp, file);
}

/** Single-quotes a string for POSIX sh. */
function shQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ---------------------------------------------------------------------------------------------
// CLI: tsx infra/tools.ts all|temporal|minio|test-server

const TOOLS: Record<string, () => Promise<string>> = {
  temporal: findTemporalCli,
  minio: findMinio,
  'test-server': findTemporalTestServer,
};

async function main(argv: string[]): Promise<void> {
  const target = argv[0] ?? 'all';
  const names = target === 'all' ? Object.keys(TOOLS) : [target];
  for (const name of names) {
    const find = TOOLS[name];
    if (!find) {
      process.stderr.write(`usage: tsx infra/tools.ts all|${Object.keys(TOOLS).join('|')}\n`);
      process.exit(2);
    }
    // Sequential on purpose: each build uses all cores.
    const found = await find();
    process.stdout.write(`${name}: ${found}\n`);
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`tools: ${message}\n`);
    process.exit(1);
  });
}
