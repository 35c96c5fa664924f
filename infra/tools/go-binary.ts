/**
 * Binaries built from Go modules with `go install` on first use (the Temporal CLI; MinIO for the
 * tests): found from an environment variable, PATH, the cache or GOPATH first.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { cacheBin, cacheDir, withLock } from './cache';
import { findOnPath, firstLine, fromEnvVar, isExecutableFile, logTail, run, runLogged } from './exec';

export interface GoBinary {
  /** The name it is found and cached under. */
  binary: string;
  /** The name `go install` gives it (the package's last path element), when it differs. */
  installs?: string;
  envVar: string;
  label: string;
  module: string;
}

export async function findOrBuildGoBinary(spec: GoBinary): Promise<string> {
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
    const built = path.join(buildDir, spec.installs ?? spec.binary);
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

