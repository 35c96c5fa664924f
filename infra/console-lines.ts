import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * `npm start`'s terminal shows what a person starting the product needs: its services and addresses,
 * warnings and errors. Every line a part writes (request logs included) goes to its file under
 * `.data/logs/`; only warnings and errors, and lines that are not log records (a crash's stack, a
 * runtime warning), also reach the terminal, as one readable line each. In production the API and
 * the worker write their JSON lines to stdout as before: this is the supervisor's view only.
 */

const LEVEL_NAMES: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };
/** pino's warn level: lines at or above it reach the terminal. */
const TERMINAL_LEVEL = 40;
/** A log file this large at start is kept as `<name>.log.1` and a new one begun. */
const ROTATE_BYTES = 20 * 1024 * 1024;

/** What the terminal shows of one line of a part's output, or null for the log file alone. */
export function terminalLine(part: string, line: string): string | null {
  const text = line.trimEnd();
  if (!text) return null;
  let record: unknown;
  try {
    record = text.startsWith('{') ? JSON.parse(text) : undefined;
  } catch {
    record = undefined;
  }
  if (!record || typeof record !== 'object' || typeof (record as { level?: unknown }).level !== 'number') return `[${part}] ${text}`;
  const { level, msg, err } = record as { level: number; msg?: unknown; err?: { message?: unknown } };
  if (level < TERMINAL_LEVEL) return null;
  const name = LEVEL_NAMES[Math.min(60, Math.floor(level / 10) * 10)] ?? 'warning';
  const detail = typeof err?.message === 'string' && err.message !== msg ? `: ${err.message.split('\n')[0]}` : '';
  return `[${part}] ${name}: ${typeof msg === 'string' ? msg : 'log record'}${detail}`;
}

/** Opens `<dir>/<part>.log` for appending (owner only), moving a large old one aside first. */
export async function openPartLog(dir: string, part: string): Promise<WriteStream> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${part}.log`);
  const size = await stat(file).then((s) => s.size, () => 0);
  if (size > ROTATE_BYTES) await rename(file, `${file}.1`);
  return createWriteStream(file, { flags: 'a', mode: 0o600 });
}

/** Copies every line of `from` to the log file, and what `terminalLine` keeps to the terminal. */
export function routeLines(part: string, from: Readable, log: WriteStream, terminal: (line: string) => void): void {
  const lines = createInterface({ input: from, crlfDelay: Infinity });
  lines.on('line', (line) => {
    log.write(`${line}\n`);
    const shown = terminalLine(part, line);
    if (shown) terminal(shown);
  });
}
