import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { TooManyAttempts } from '../errors';

/** One caller's place in the queue: a password check waiting for a slot. */
interface Waiting {
  start: () => void;
  refuse: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface PasswordWorkOptions {
  /** Checks that run at the same time (each is an argon2 hash of ~13 ms of one core). */
  atOnce?: number;
  /** How long a check may wait for a slot before it is refused as busy. */
  maxWaitMs?: number;
  /** Checks one caller may have waiting; more are refused at once. */
  perCaller?: number;
}

/** The answer to a check that could not get a slot: 429 `serverBusy`, try again after Retry-After. */
export const serverBusy = (retryAfterSeconds: number) => new TooManyAttempts(retryAfterSeconds, 'serverBusy');

/**
 * Password hashes and checks, bounded: argon2 is deliberately expensive, and a burst of sign-ins
 * left unbounded takes every core from every other request on the replica. At most `atOnce` run
 * together; the rest wait in one queue per caller (the client address), served in turn, so one
 * address sending many cannot push others back. A check that would wait too long is refused with
 * 429 before any work is done, so the client can retry without anything having happened.
 */
export class PasswordWork {
  readonly atOnce: number;
  readonly maxWaitMs: number;
  readonly perCaller: number;
  private running = 0;
  /** Callers with checks waiting, in the order they are served; each caller's checks in arrival order. */
  private readonly queues = new Map<string, Waiting[]>();

  constructor(options: PasswordWorkOptions = {}) {
    this.atOnce = Math.max(1, options.atOnce ?? Math.floor(availableParallelism() / 2));
    this.maxWaitMs = options.maxWaitMs ?? 3_000;
    this.perCaller = options.perCaller ?? 4;
  }

  /** Checks waiting for a slot now (all callers). */
  get waiting(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  /** Runs `task` once a slot is free for `caller`; refuses with `serverBusy` when the wait would be too long. */
  async run<T>(caller: string, task: () => Promise<T>): Promise<T> {
    await this.slot(caller);
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.next();
    }
  }

  hash(caller: string, password: string): Promise<string> {
    return this.run(caller, () => hash(password));
  }

  /** False for a wrong password and for a stored hash that cannot be read. */
  verify(caller: string, storedHash: string, password: string): Promise<boolean> {
    return this.run(caller, () => verify(storedHash, password).catch(() => false));
  }

  private slot(caller: string): Promise<void> {
    if (this.running < this.atOnce && this.queues.size === 0) {
      this.running += 1;
      return Promise.resolve();
    }
    const queue = this.queues.get(caller) ?? [];
    if (queue.length >= this.perCaller) return Promise.reject(serverBusy(this.retryAfterSeconds()));
    return new Promise<void>((start, refuse) => {
      const waiting: Waiting = {
        start,
        refuse,
        timer: setTimeout(() => this.giveUp(caller, waiting), this.maxWaitMs),
      };
      queue.push(waiting);
      this.queues.set(caller, queue);
    });
  }

  /** Starts the next waiting check, taking callers in turn: the first caller's first check, then that caller goes to the back. */
  private next(): void {
    while (this.running < this.atOnce && this.queues.size > 0) {
      const [caller, queue] = this.queues.entries().next().value as [string, Waiting[]];
      const waiting = queue.shift() as Waiting;
      this.queues.delete(caller);
      if (queue.length > 0) this.queues.set(caller, queue);
      clearTimeout(waiting.timer);
      this.running += 1;
      waiting.start();
    }
  }

  private giveUp(caller: string, waiting: Waiting): void {
    const queue = this.queues.get(caller);
    const at = queue?.indexOf(waiting) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(caller);
    waiting.refuse(serverBusy(this.retryAfterSeconds()));
  }

  private retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.maxWaitMs / 1000));
  }
}
