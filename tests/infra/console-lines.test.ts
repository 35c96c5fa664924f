import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openPartLog, routeLines, terminalLine } from '../../infra/console-lines';

describe("npm start's terminal lines", () => {
  it('keeps request logs and other info records off the terminal', () => {
    expect(terminalLine('api', JSON.stringify({ level: 30, msg: 'request completed', res: { statusCode: 200 } }))).toBeNull();
    expect(terminalLine('worker', JSON.stringify({ level: 20, msg: 'polling' }))).toBeNull();
    expect(terminalLine('api', '   ')).toBeNull();
  });

  it('shows warnings and errors as one readable line, with the error message', () => {
    expect(terminalLine('api', JSON.stringify({ level: 40, msg: 'temporal unavailable', err: { message: 'no answer\nstack' } }))).toBe('[api] warning: temporal unavailable: no answer');
    expect(terminalLine('worker', JSON.stringify({ level: 50, msg: 'activity failed' }))).toBe('[worker] error: activity failed');
    expect(terminalLine('api', JSON.stringify({ level: 60, msg: 'down', err: { message: 'down' } }))).toBe('[api] fatal: down');
  });

  it('shows lines that are not log records as they are (a crash, a runtime warning)', () => {
    expect(terminalLine('api', 'Error: listen EADDRINUSE: address already in use :::3000')).toBe('[api] Error: listen EADDRINUSE: address already in use :::3000');
    expect(terminalLine('api', '{ not json')).toBe('[api] { not json');
    expect(terminalLine('api', JSON.stringify({ msg: 'no level' }))).toBe(`[api] ${JSON.stringify({ msg: 'no level' })}`);
  });

  it('writes every line to the part log (owner only), and moves a large old log aside', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-logs-'));
    try {
      await writeFile(join(dir, 'api.log'), Buffer.alloc(21 * 1024 * 1024, 'x'));
      const log = await openPartLog(dir, 'api');
      const output = new PassThrough();
      const shown: string[] = [];
      routeLines('api', output, log, (line) => shown.push(line));
      output.end(`${JSON.stringify({ level: 30, msg: 'request completed' })}\n${JSON.stringify({ level: 50, msg: 'boom' })}\n`);
      await new Promise((resolve) => output.once('end', resolve));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => log.end(resolve));
      const written = await readFile(join(dir, 'api.log'), 'utf8');
      expect(written.split('\n').filter(Boolean).map((l) => JSON.parse(l).msg)).toEqual(['request completed', 'boom']);
      expect(shown).toEqual(['[api] error: boom']);
      expect((await stat(join(dir, 'api.log'))).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'api.log.1'))).size).toBe(21 * 1024 * 1024);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
