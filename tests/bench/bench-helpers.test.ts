import { describe, expect, it } from 'vitest';
import { DEFAULTS, parseArgs } from './args';
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
});
