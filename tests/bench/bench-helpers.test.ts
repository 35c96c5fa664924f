import { describe, expect, it } from 'vitest';
import { DEFAULTS, parseArgs } from './args';
import { cpuByPart, cpuSpent, parseProcStat } from './cpu';
import { paced, percentile, pool, summarize } from './stats';
import { bytes, formatTable, ms, msDelta } from './table';

// The bench's pure helpers (npm run bench is not a test; its arithmetic and table are checked here).
describe('bench helpers', () => {
  it('takes percentiles by nearest rank, so each is a sample that happened', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100, unsorted
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 95)).toBe(95);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(summarize([4, 1, 3, 2])).toEqual({ n: 4, p50: 2, p95: 4, p99: 4, max: 4, mean: 2.5 });
  });

  it('formats a table whose columns line up and whose cells cannot break the Markdown', () => {
    const table = formatTable([
      { section: 'Lists', name: '', value: '' },
      { name: 'inbox | first page', value: 'p95 12 ms', goal: '<= 20 ms', met: true },
      { name: 'draw', value: '14.2 s', goal: '<= 10 s', bare: '', met: false, note: 'slow' },
      { name: 'history', value: '23' },
    ]).split('\n');
    expect(table[0]).toMatch(/^\| figure +\| measured +\| goal +\| bare client +\| goal met +\| note +\|$/);
    expect(table[1]).toMatch(/^\|-+\|-+\|-+\|-+\|-+\|-+\|$/);
    expect(new Set(table.map((line) => line.length)).size).toBe(1);
    expect(table[2]).toContain('**Lists**');
    expect(table[3]).toContain('inbox \\| first page');
    expect(table[3]).toContain('| ok ');
    expect(table[4]).toContain('| MISSED ');
    expect(table[5]).toMatch(/\| history +\| 23 +\| +\| +\| +\| +\|$/);
  });

  it('writes durations, differences and sizes at a precision that suits them', () => {
    expect(ms(3.14159)).toBe('3.14 ms');
    expect(ms(42.25)).toBe('42.3 ms');
    expect(ms(1234.4)).toBe('1234 ms');
    expect(ms(12_345)).toBe('12.3 s');
    expect(ms(Number.NaN)).toBe('n/a');
    expect(msDelta(-0.4)).toBe('-0.40 ms');
    expect(msDelta(30)).toBe('+30.0 ms');
    expect(bytes(1.5 * 1024 * 1024)).toBe('1.50 MB');
    expect(bytes(2048)).toBe('2.0 KB');
  });

  it('reads sizes from the command line and refuses what it does not know', () => {
    expect(parseArgs([])).toEqual(DEFAULTS);
    expect(parseArgs(['--applications', '10000', '--skip-web', '--rate=20'])).toMatchObject({ applications: 10_000, skipWeb: true, rate: 20 });
    expect(() => parseArgs(['--applications', 'many'])).toThrow(/whole number/);
    expect(() => parseArgs(['--applications'])).toThrow(/whole number/);
    expect(() => parseArgs(['--fast'])).toThrow(/unknown option --fast/);
    expect(() => parseArgs(['10000'])).toThrow(/unexpected argument/);
  });

  it('runs at most N tasks at once, and paces starts at a steady rate', async () => {
    let running = 0;
    let most = 0;
    await pool(20, 3, async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    });
    expect(most).toBe(3);
    const starts: number[] = [];
    const t0 = performance.now();
    await paced(5, 100, async () => {
      starts.push(performance.now() - t0);
    });
    // 100 a second: the fifth starts about 40 ms after the first, never before.
    expect(starts[4]!).toBeGreaterThanOrEqual(39);
  });

  it('reads CPU time from /proc stat lines, names with spaces and parentheses included, and sums each part with its descendants', () => {
    const line = (pid: number, comm: string, ppid: number, utime: number, stime: number) =>
      `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194304 100 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 100 1000 200`;
    expect(parseProcStat(line(42, 'node (worker) x', 1, 150, 50))).toEqual({ pid: 42, ppid: 1, comm: 'node (worker) x', cpuSeconds: 2 });
    expect(parseProcStat('garbage')).toBeNull();
    // The children it has waited for count too (a PostgreSQL backend that exited stays in the postmaster's figure).
    expect(parseProcStat('7 (postgres) S 1 7 7 0 -1 4194304 100 0 0 0 100 50 30 20 20 0 1 0 100 1000 200')!.cpuSeconds).toBe(2);
    const procs = [
      line(10, 'node', 1, 100, 0), // the bench
      line(11, 'node', 10, 300, 100), // worker
      line(12, 'node', 11, 50, 50), // the worker's own child
      line(13, 'postgres', 10, 100, 0),
      line(14, 'postgres', 13, 200, 0), // a backend
      line(15, 'temporal', 10, 500, 0), // found by name under the bench
      line(16, 'temporal', 1, 900, 0), // another machine user's: not ours
      line(17, 'minio', 10, 30, 0), // nobody's part: the bench's
    ].map((l) => parseProcStat(l)!);
    const parts = cpuByPart(procs, { worker: 11, PostgreSQL: 13, bench: 10 }, { under: 10, names: { temporal: 'Temporal' } });
    expect(parts).toEqual({ worker: 5, PostgreSQL: 3, bench: 1.3, Temporal: 5 });
    expect(cpuSpent({ worker: 4, bench: 2 }, { worker: 5, bench: 1.5, Temporal: 5 })).toEqual({ worker: 1, bench: 0, Temporal: 5 });
  });
});
