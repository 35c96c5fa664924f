/**
 * The cache outside the repository where external binaries live (`${XDG_CACHE_HOME:-~/.cache}/housing-portal/`),
 * and the lock file that makes one process build each of them while the others wait and reuse it.
 */
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { delay } from './exec';

/** `${XDG_CACHE_HOME:-~/.cache}/housing-portal` */
export function cacheDir(): string {
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'housing-portal');
}

export function cacheBin(): string {
  return path.join(cacheDir(), 'bin');
}

const LOCK_WAIT_MS = 60 * 60 * 1000;

export async function withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
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

