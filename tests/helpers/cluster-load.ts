/**
 * A steady mixed load through the cluster's HAProxy, as the portal's clients send it: every
 * request is recorded (kind, start, end, status, whether a 5xx came in the envelope), and every
 * change is one logical operation sent with an Idempotency-Key and sent again with the same key
 * while it fails for a reason that says "try again" (no answer, a 5xx, a 429, a request still in
 * progress), honouring Retry-After. The checks after the load compare each operation's outcome
 * with what exists.
 */
import { randomUUID } from 'node:crypto';

/** One HTTP request as the client saw it. */
export interface Attempt {
  kind: string;
  startedAt: number;
  endedAt: number;
  /** 0: no answer (connection refused or reset); -1: no answer within the client's 30 s. */
  status: number;
  /** For a 5xx: it came in the spec's envelope. */
  enveloped: boolean;
  code: string | null;
}

/** One change the client wanted, and how it ended after its retries. */
export interface Operation<T = unknown> {
  kind: string;
  key: string;
  who: string;
  path: string;
  status: number;
  data: T | null;
  attempts: number;
  /** It never got a final answer within the operation's deadline. */
  gaveUp: boolean;
}

const HANG_MS = 30_000;
const OPERATION_DEADLINE_MS = 180_000;

/** An answer that says "send it again": no answer, a 5xx, a 429, or the same request still running. */
export function isRetryable(status: number, code: string | null): boolean {
  return status <= 0 || status >= 500 || status === 429 || (status === 409 && code === 'requestInProgress');
}

export class LoadClient {
  readonly attempts: Attempt[] = [];
  readonly operations: Operation[] = [];
  stopped = false;

  constructor(readonly baseUrl: string) {}

  /** One request, recorded. */
  async send<T = unknown>(kind: string, method: string, path: string, options: { auth?: string; json?: unknown; form?: FormData; key?: string } = {}): Promise<{ status: number; code: string | null; data: T | null; retryAfter: number }> {
    const headers: Record<string, string> = {};
    if (options.auth) headers.authorization = options.auth;
    if (options.key) headers['idempotency-key'] = options.key;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const startedAt = Date.now();
    let status: number;
    let text = '';
    let retryAfter = 1;
    try {
      const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)), signal: AbortSignal.timeout(HANG_MS) });
      text = await res.text();
      status = res.status;
      retryAfter = Number(res.headers.get('retry-after') ?? '1') || 1;
    } catch (error) {
      status = (error as Error).name === 'TimeoutError' ? -1 : 0;
    }
    const body = parseEnvelope(text);
    const code = (body?.data as { code?: string } | undefined)?.code ?? null;
    const enveloped = body !== null && typeof body.status === 'number' && typeof body.message === 'string' && 'data' in body;
    this.attempts.push({ kind, startedAt, endedAt: Date.now(), status, enveloped, code });
    return { status, code, data: (body?.data as T | undefined) ?? null, retryAfter };
  }

  /** A change sent with one key until it has a final answer (or the deadline passes: recorded as given up). */
  async operate<T = unknown>(kind: string, who: string, method: string, path: string, options: { auth: () => string; json?: unknown; form?: () => FormData }): Promise<Operation<T>> {
    const key = `${kind.replace(/\W+/g, '-')}-${randomUUID()}`;
    const deadline = Date.now() + OPERATION_DEADLINE_MS;
    const op: Operation<T> = { kind, key, who, path, status: 0, data: null, attempts: 0, gaveUp: false };
    for (;;) {
      op.attempts++;
      const res = await this.send<T>(kind, method, path, { auth: options.auth(), key, ...(options.json !== undefined ? { json: options.json } : {}), ...(options.form ? { form: options.form() } : {}) });
      op.status = res.status;
      op.data = res.data;
      if (!isRetryable(res.status, res.code)) break;
      if (Date.now() > deadline) {
        op.gaveUp = true;
        break;
      }
      await new Promise((done) => setTimeout(done, Math.min(2000, res.retryAfter * 1000) * (0.5 + Math.random() / 2)));
    }
    this.operations.push(op as Operation);
    return op;
  }

  /** A read, sent again while it fails for a reason that says "try again" (until the load stops). */
  async read<T = unknown>(kind: string, path: string, auth: () => string): Promise<T | null> {
    for (;;) {
      const res = await this.send<T>(kind, 'GET', path, { auth: auth() });
      if (!isRetryable(res.status, res.code) || this.stopped) return res.status === 200 ? res.data : null;
      await new Promise((done) => setTimeout(done, Math.min(2000, res.retryAfter * 1000) * (0.5 + Math.random() / 2)));
    }
  }
}

function parseEnvelope(text: string): { status?: number; message?: string; data?: unknown } | null {
  try {
    return text ? (JSON.parse(text) as { status?: number; message?: string; data?: unknown }) : null;
  } catch {
    return null;
  }
}

/** A signed-in person of the load: tokens kept fresh by refreshing, and a fresh sign-in when refreshing fails. */
export class LoadSession {
  access = '';
  refresh = '';
  userId = '';

  constructor(
    private readonly client: LoadClient,
    readonly username: string,
    private readonly password: string,
  ) {}

  auth = () => `Bearer ${this.access}`;

  async signIn(): Promise<void> {
    for (;;) {
      const res = await this.client.send<{ accessToken: string; refreshToken: string; userId: string }>('sign-in', 'POST', '/api/Account/login', { json: { username: this.username, password: this.password } });
      if (res.status === 200 && res.data) {
        this.access = res.data.accessToken;
        this.refresh = res.data.refreshToken;
        this.userId = res.data.userId;
        return;
      }
      if (!isRetryable(res.status, res.code)) throw new Error(`${this.username} could not sign in: ${res.status} ${res.code}`);
      await new Promise((done) => setTimeout(done, Math.min(2000, res.retryAfter * 1000)));
    }
  }

  /**
   * Rotates the refresh token. A rotation whose answer was lost leaves the client with a spent token
   * (the server's reuse detection then ends the family): the client signs in again, as the web app does.
   */
  async refreshTokens(): Promise<void> {
    const res = await this.client.send<{ accessToken: string; refreshToken: string }>('refresh', 'POST', '/api/Account/refresh-token', { json: { refreshToken: this.refresh } });
    if (res.status === 200 && res.data) {
      this.access = res.data.accessToken;
      this.refresh = res.data.refreshToken;
    } else if (res.status === 401 || isRetryable(res.status, res.code)) {
      await this.signIn();
    }
  }
}

/** The recovery after one kill: the time until the last failed request it caused ended, and what clients saw meanwhile. */
export interface Recovery {
  part: string;
  killedAt: number;
  recoveredMs: number;
  /** Share of requests answered without a failure in the 20 s before the kill. */
  successBefore: number;
  failuresByStatus: Record<string, number>;
  requests: number;
}

const failed = (a: Attempt) => isRetryable(a.status, a.code);

/** For each kill (in order), its recovery: failures from the kill until the next kill (or the end). */
export function recoveries(attempts: readonly Attempt[], kills: readonly { part: string; at: number }[], endAt: number): Recovery[] {
  return kills.map((kill, i) => {
    const until = kills[i + 1]?.at ?? endAt;
    const before = attempts.filter((a) => a.startedAt >= kill.at - 20_000 && a.startedAt < kill.at);
    const during = attempts.filter((a) => a.endedAt >= kill.at && a.startedAt < until);
    const failures = during.filter(failed);
    const lastFailure = failures.reduce((last, a) => Math.max(last, a.endedAt), kill.at);
    const byStatus: Record<string, number> = {};
    for (const a of failures) {
      const label = a.status === 0 ? 'no answer' : a.status === -1 ? 'hung' : a.code === 'requestInProgress' ? '409 in progress' : String(a.status);
      byStatus[label] = (byStatus[label] ?? 0) + 1;
    }
    return {
      part: kill.part,
      killedAt: kill.at,
      recoveredMs: lastFailure - kill.at,
      successBefore: before.length === 0 ? 1 : before.filter((a) => !failed(a)).length / before.length,
      failuresByStatus: byStatus,
      requests: during.filter((a) => a.startedAt < kill.at + (lastFailure - kill.at)).length,
    };
  });
}

/** The recovery table as the note carries it. */
export function recoveryTable(rows: readonly Recovery[], goalsMs: Record<string, number>): string {
  const lines = ['| killed (kill -9) | back after | goal | success before | failed requests meanwhile (by status) |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const failures = Object.entries(r.failuresByStatus).map(([status, n]) => `${status}: ${n}`).join(', ') || 'none';
    lines.push(`| ${r.part} | ${(r.recoveredMs / 1000).toFixed(1)} s | ≤ ${(goalsMs[r.part] ?? 0) / 1000} s | ${(r.successBefore * 100).toFixed(1)}% | ${failures} |`);
  }
  return lines.join('\n');
}
