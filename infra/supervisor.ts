/**
 * The supervisor `npm start` and `npm run start:cluster` share: each part (a server, the API, a
 * worker) is started, and started again with back-off whenever it ends (1 s, doubling to 30 s; back
 * to 1 s after a minute of running), each time said on the console. Only the caller stops parts, in
 * the reverse order of their start.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { openPartLog, routeLines } from './console-lines';

/** One running part: its process id, how it ends, and how to stop it. */
export interface Running {
  pid: number | undefined;
  exited: Promise<string>;
  stop(): Promise<void>;
}

const BACKOFF = { firstMs: 1000, maxMs: 30_000, stableAfterMs: 60_000 } as const;

/** The wait before the n-th restart in a row (n from 1). */
const restartDelay = (n: number) => Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** (n - 1));

/** Parts in their order of start; `stopAll` stops them the other way round. */
export class Parts {
  stopping = false;
  private readonly started: Supervisor[] = [];

  constructor(readonly say: (line: string) => void) {}

  /**
   * Starts a part and keeps it running; the first start must succeed. Parts of one `group` (the API
   * replicas, the workers) are stopped together.
   */
  async start(name: string, launch: () => Promise<Running>, group = name): Promise<Supervisor> {
    const part = new Supervisor(name, launch, this, group);
    this.started.push(part);
    await part.start();
    return part;
  }

  /** Stops everything once (a second Ctrl-C waits on the first) and ends the process with `code`. */
  async stopAndExit(code: number): Promise<never> {
    if (this.stopping) return new Promise<never>(() => {});
    this.say('stopping...');
    await this.stopAll();
    this.say('stopped');
    process.exit(code);
  }

  /** Stops every part, the last started first (a group at once). */
  async stopAll(): Promise<void> {
    this.stopping = true;
    const order = [...this.started].reverse();
    while (order.length > 0) {
      const group = order[0]!.group;
      const together = order.filter((p) => p.group === group);
      await Promise.all(together.map((p) => p.stop()));
      order.splice(0, order.length, ...order.filter((p) => p.group !== group));
    }
  }
}

/** Keeps one part running: starts it, and starts it again with back-off whenever it ends. */
export class Supervisor {
  private current: Running | undefined;
  private restarts = 0;
  private wake: (() => void) | undefined;

  constructor(
    readonly name: string,
    private readonly launch: () => Promise<Running>,
    private readonly parts: Parts,
    readonly group: string,
  ) {}

  get pid(): number | undefined {
    return this.current?.pid;
  }

  /** The first start must succeed: a part that cannot start at all is a configuration problem. */
  async start(): Promise<void> {
    this.current = await this.launch();
    this.parts.say(`${this.name} started (pid ${this.current.pid})`);
    void this.watch(this.current, Date.now());
  }

  private async watch(running: Running, startedAt: number): Promise<void> {
    const how = await running.exited;
    if (this.parts.stopping || running !== this.current) return;
    if (Date.now() - startedAt >= BACKOFF.stableAfterMs) this.restarts = 0;
    for (;;) {
      const delay = restartDelay(++this.restarts);
      this.parts.say(`${this.name} exited (${how}); restarting in ${Math.round(delay / 1000)}s (restart ${this.restarts})`);
      await new Promise<void>((done) => {
        const timer = setTimeout(done, delay);
        this.wake = () => {
          clearTimeout(timer);
          done();
        };
      });
      this.wake = undefined;
      if (this.parts.stopping) return;
      try {
        this.current = await this.launch();
      } catch (error) {
        if (this.parts.stopping) return;
        this.parts.say(`${this.name} could not start: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
        continue;
      }
      this.parts.say(`${this.name} restarted (pid ${this.current.pid})`);
      void this.watch(this.current, Date.now());
      return;
    }
  }

  async stop(): Promise<void> {
    this.wake?.();
    await this.current?.stop().catch(() => undefined);
  }
}

/**
 * A Node entry point (`api/main.ts`, `worker/main.ts`) as a part: its own process group, so Ctrl-C
 * reaches only the supervisor, which stops children in order. Its lines go to `<logDir>/<name>.log`;
 * warnings and errors also to the terminal.
 */
export function nodeProcess(name: string, script: string, env: NodeJS.ProcessEnv, options: { logDir: string; nodeFlags?: string[] }): () => Promise<Running> {
  return async () => {
    const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const log = await openPartLog(options.logDir, name);
    routeLines(name, child.stdout!, log, (line) => process.stdout.write(`${line}\n`));
    routeLines(name, child.stderr!, log, (line) => process.stderr.write(`${line}\n`));
    const exited = exitOf(child).finally(() => log.end());
    return { pid: child.pid, exited, stop: () => stopChild(child) };
  };
}

/** Any other program as a part, its output appended to `<logDir>/<name>.log`. */
export function programProcess(name: string, command: string, args: string[], options: { logDir: string; env?: NodeJS.ProcessEnv; stopSignal?: NodeJS.Signals }): () => Promise<Running> {
  return async () => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const log = await openPartLog(options.logDir, name);
    child.stdout!.pipe(log, { end: false });
    child.stderr!.pipe(log, { end: false });
    const exited = exitOf(child).finally(() => log.end());
    return { pid: child.pid, exited, stop: () => stopChild(child, options.stopSignal) };
  };
}

export function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((done) => child.once('exit', (code, signal) => done(signal ?? `code ${code}`)));
}

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export const logDirOf = (dataDir: string) => join(dataDir, 'logs');
