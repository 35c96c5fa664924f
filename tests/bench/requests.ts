/**
 * Requests of a load run, by kind: each one's latency (a number, never its body) and its errors
 * (an unexpected status or a network error, counted, with the first few distinct messages kept).
 */
import type { Timed } from './http';
import { since, summarize, type Summary } from './stats';

const KEEP_MESSAGES = 3;

export interface KindFigures {
  kind: string;
  summary: Summary;
  /** The same requests split by when they were sent: before and after `figures`' `splitAt` (when given). */
  before?: Summary;
  after?: Summary;
  errors: number;
  /** The first distinct error messages, in the order seen. */
  messages: string[];
}

export class Requests {
  /** Per kind: each answered request's latency and when it was sent (performance.now()), in parallel arrays. */
  private readonly latencies = new Map<string, { ms: number[]; sentAt: number[] }>();
  private readonly failures = new Map<string, { count: number; messages: string[] }>();

  /** @param kinds the kinds in the order they are reported (a kind never sent still shows, with no samples). */
  constructor(private readonly kinds: readonly string[]) {}

  /**
   * Sends one request and records it under `kind`; answers the response when its status is
   * `expect`, null otherwise. An answered request counts toward the latencies whatever its status;
   * one that never got an answer (refused, reset, timed out) only as an error.
   */
  async send<T>(kind: string, expect: number, request: () => Promise<Timed<T>>): Promise<Timed<T> | null> {
    const start = performance.now();
    let res: Timed<T>;
    try {
      res = await request();
    } catch (error) {
      this.fail(kind, `${describe(error)} after ${Math.round(since(start))} ms`);
      return null;
    }
    const samples = this.samples(kind);
    samples.ms.push(res.ms);
    samples.sentAt.push(start);
    if (res.status === expect) return res;
    this.fail(kind, `${res.status} ${res.body?.message ?? ''}`.trim());
    return null;
  }

  /** An error found in an answer whose status was right (a field missing). */
  fail(kind: string, message: string): void {
    const failure = this.failures.get(kind) ?? { count: 0, messages: [] };
    failure.count++;
    if (failure.messages.length < KEEP_MESSAGES && !failure.messages.includes(message)) failure.messages.push(message);
    this.failures.set(kind, failure);
  }

  /** Figures per kind; with `splitAt` (a performance.now() reading), also those sent before it and after it. */
  figures(splitAt?: number): KindFigures[] {
    const seen = [...this.latencies.keys(), ...this.failures.keys()];
    const kinds = [...this.kinds, ...seen.filter((k, i) => !this.kinds.includes(k) && seen.indexOf(k) === i)];
    return kinds.map((kind) => {
      const { ms, sentAt } = this.latencies.get(kind) ?? { ms: [], sentAt: [] };
      const split =
        splitAt === undefined ? {} : { before: summarize(ms.filter((_, i) => sentAt[i]! < splitAt)), after: summarize(ms.filter((_, i) => sentAt[i]! >= splitAt)) };
      return { kind, summary: summarize(ms), ...split, errors: this.failures.get(kind)?.count ?? 0, messages: this.failures.get(kind)?.messages ?? [] };
    });
  }

  /** Per kind: the p99 of the requests sent in [from, to), and of those sent outside it. */
  during(from: number, to: number): { kind: string; inside: Summary; outside: Summary }[] {
    return [...this.latencies.entries()].map(([kind, { ms, sentAt }]) => ({
      kind,
      inside: summarize(ms.filter((_, i) => sentAt[i]! >= from && sentAt[i]! < to)),
      outside: summarize(ms.filter((_, i) => sentAt[i]! < from || sentAt[i]! >= to)),
    }));
  }

  private samples(kind: string): { ms: number[]; sentAt: number[] } {
    let samples = this.latencies.get(kind);
    if (!samples) this.latencies.set(kind, (samples = { ms: [], sentAt: [] }));
    return samples;
  }
}

/** A fetch failure's message with its cause ("fetch failed: ECONNRESET"), or a timeout's name. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timed out';
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause ? `${error.message}: ${cause.code ?? cause.message ?? ''}` : error.message;
}
