/** File and process helpers for finding and building external binaries. */
import { execFile, spawn } from 'node:child_process';
import { constants, createWriteStream } from 'node:fs';
import { access, chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function fromEnvVar(name: string): Promise<string | undefined> {
  const value = process.env[name];
  if (!value) return undefined;
  const resolved = path.resolve(value);
  if (!(await isExecutableFile(resolved))) {
    throw new Error(`${name}=${value} is not an executable file`);
  }
  return resolved;
}

export async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

export async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

export function run(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(error);
      else resolve({ stdout, stderr });
    });
  });
}

/** Runs a command with its output going to a log file (stdin closed); rejects on a non-zero exit. */
export async function runLogged(
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

export async function logTail(logFile: string, lines = 15): Promise<string> {
  try {
    const text = await readFile(logFile, 'utf8');
    const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
    return tail ? `\n--- last lines of ${logFile} ---\n${tail}` : '';
  } catch {
    return '';
  }
}

export async function writeExecutable(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp-${process.pid}`;
  await writeFile(temp, content, { encoding: 'utf8', mode: 0o755 });
  await chmod(temp, 0o755);
  await rename(temp, file);
}

/** Single-quotes a string for POSIX sh. */
export function shQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

