/**
 * The Java time-skipping test server, fetched from Maven Central with `mvn` and wrapped in a shell
 * script that `@temporalio/testing` runs as an `existing-path` executable (tests only).
 */
import { spawn } from 'node:child_process';
import { mkdir, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { cacheBin, cacheDir, withLock } from '../../infra/tools/cache';
import { delay, findOnPath, firstLine, fromEnvVar, isExecutableFile, isFile, logTail, runLogged, shQuote, writeExecutable } from '../../infra/tools/exec';

/** `io.temporal:temporal-test-server` on Maven Central (released with the Java SDK). */
export const TEMPORAL_TEST_SERVER_VERSION = '1.38.0';
const MAVEN_DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
/** Matches the slf4j-api 1.7.x the test server depends on. */
const SLF4J_NOP_VERSION = '1.7.36';
/** First line of <cacheDir>/temporal-test-server/installed; a different value makes the next call fetch again. */
const TEST_SERVER_INSTALL_ID = `${TEMPORAL_TEST_SERVER_VERSION} slf4j-nop-${SLF4J_NOP_VERSION}`;

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
<!-- Generated by tests/setup/temporal-test-server.ts: only used to fetch the Temporal test server and its runtime dependencies. -->
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
# Generated by tests/setup/temporal-test-server.ts: Temporal time-skipping test server ${TEMPORAL_TEST_SERVER_VERSION}.
# Usage: temporal-test-server <port> [args...]   (what @temporalio/testing passes)
exec ${shQuote(java)} ${cds}-Xlog:disable -Xlog:all=error:stderr ${JVM_FLAGS.join(' ')} \\
  -cp ${shQuote(`${lib}/*`)} io.temporal.testserver.TestServer "$@"
`;
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
