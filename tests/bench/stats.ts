/** Figures from timed samples: percentiles by nearest rank, so a p99 is a latency that happened. */

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** The p-th percentile (0 < p <= 100) of the samples by nearest rank; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const n = samples.length;
  return {
    n,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: n === 0 ? Number.NaN : Math.max(...samples),
    mean: n === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / n,
  };
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export const since = (start: number) => performance.now() - start;

/** Runs `task` `count` times with at most `concurrency` at once; resolves once all have run. */
export async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, lane));
}

/** Starts `task` at a steady `perSecond` rate (open loop: a slow answer does not delay the next start). */
export async function paced(count: number, perSecond: number, task: (i: number) => Promise<void>): Promise<void> {
  const start = performance.now();
  const running: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / perSecond;
    // A timer can fire up to a millisecond early against performance.now() (the event loop's clock
    // is cached in whole milliseconds): wait again until the start is really due.
    for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) await new Promise((r) => setTimeout(r, Math.ceil(wait)));
    running.push(task(i));
  }
  await Promise.all(running);
}
