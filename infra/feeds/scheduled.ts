import type { FeedCard, FeedUnavailableReason } from '../../domain/feeds';

export interface FeedLog {
  warn(obj: object, msg: string): void;
}

/**
 * One source fetched on a schedule (never per visitor): keeps the last good answer with its time.
 * A fetch runs at most once at a time, is cut off after `timeoutMs`, and is aborted on stop; the
 * timers are unref'd, so a schedule never keeps the process alive.
 */
export class ScheduledFeed<T> {
  private value: T | null = null;
  private fetchedAt: number | null = null;
  private failedAt: number | null = null;
  private inFlight: Promise<void> | null = null;
  private controller: AbortController | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    readonly name: string,
    private readonly fetcher: ((signal: AbortSignal) => Promise<T>) | null,
    private readonly intervalMs: number,
    private readonly timeoutMs: number,
    private readonly log: FeedLog,
  ) {}

  get configured(): boolean {
    return this.fetcher !== null;
  }

  /** First fetch now (in the background), then every interval. Nothing when no source is configured. */
  start(): void {
    if (!this.fetcher || this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.refresh(), this.intervalMs);
    this.timer.unref();
    void this.refresh();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.controller?.abort();
  }

  /** One fetch (skipped while one is running); resolves when it ends, never rejects. */
  refresh(): Promise<void> {
    if (!this.fetcher || this.stopped) return Promise.resolve();
    if (this.inFlight) return this.inFlight;
    const controller = new AbortController();
    this.controller = controller;
    const timeout = setTimeout(() => controller.abort(), this.timeoutMs);
    timeout.unref();
    this.inFlight = this.fetcher(controller.signal)
      .then((value) => {
        this.value = value;
        this.fetchedAt = Date.now();
        this.failedAt = null;
      })
      .catch((error: unknown) => {
        this.failedAt = Date.now();
        if (!this.stopped) this.log.warn({ feed: this.name, reason: error instanceof Error ? error.message : 'failed' }, 'feed fetch failed');
      })
      .finally(() => {
        clearTimeout(timeout);
        this.inFlight = null;
        this.controller = null;
      });
    return this.inFlight;
  }

  /** What the dashboard shows now: the last answer (stale when the last fetch failed or is overdue) or why there is none. */
  card<U = T>(now: number, view: (value: T) => U = (v) => v as unknown as U): FeedCard<U> {
    if (this.value === null || this.fetchedAt === null) {
      const reason: FeedUnavailableReason = !this.fetcher ? 'notConfigured' : this.failedAt !== null ? 'failed' : 'notYetFetched';
      return { state: 'unavailable', fetchedAt: null, ageSeconds: null, reason, data: null };
    }
    const ageMs = Math.max(0, now - this.fetchedAt);
    const overdue = ageMs > 2 * this.intervalMs + this.timeoutMs;
    return {
      state: this.failedAt !== null || overdue ? 'stale' : 'fresh',
      fetchedAt: new Date(this.fetchedAt).toISOString(),
      ageSeconds: Math.floor(ageMs / 1000),
      reason: null,
      data: view(this.value),
    };
  }

  get hasValue(): boolean {
    return this.value !== null;
  }
}
