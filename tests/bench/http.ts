/** The bench's HTTP client: real requests to the API's port, each timed from send to the whole body read. */
import { createHmac, randomUUID } from 'node:crypto';
import type { Db } from '../../infra/db/database';
import demo from '../../infra/demo-accounts.json' with { type: 'json' };

export interface Timed<T = unknown> {
  status: number;
  ms: number;
  bytes: number;
  body: { status?: number; message?: string; data?: T } | null;
}

export class Api {
  constructor(readonly baseUrl: string) {}

  /** `extra.headers`: more request headers (a client address behind the trusted proxy); `extra.timeoutMs`: give up after this long. */
  async call<T = unknown>(method: string, path: string, authorization?: string, body?: unknown, extra: { headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Timed<T>> {
    const headers: Record<string, string> = { ...extra.headers };
    if (authorization) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const signal = extra.timeoutMs ? AbortSignal.timeout(extra.timeoutMs) : undefined;
    const start = performance.now();
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    const text = await response.text();
    const ms = performance.now() - start;
    let parsed: Timed<T>['body'];
    try {
      parsed = JSON.parse(text) as Timed<T>['body'];
    } catch {
      parsed = null;
    }
    return { status: response.status, ms, bytes: Buffer.byteLength(text), body: parsed };
  }

  /** Signs a demo account in through the real login route; the bearer header. */
  async login(role: 'User' | 'Manager'): Promise<string> {
    const account = demo.accounts.find((a) => a.role === role)!;
    const res = await this.call<{ accessToken: string }>('POST', '/api/Account/login', undefined, { username: account.username, password: account.password });
    if (res.status !== 200 || !res.body?.data?.accessToken) throw new Error(`login as ${role} failed: ${res.status} ${res.body?.message ?? ''}`);
    return `Bearer ${res.body.data.accessToken}`;
  }
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * Sessions for many seeded households at once, as a login leaves them (a refresh-token family row
 * and an access token naming it), without an argon2 check per household: signing in is not what the
 * bench measures, and thousands of password hashes would dominate its time.
 */
export async function mintSessions(db: Db, jwtSecret: string, userIds: readonly string[], role = 'User'): Promise<Map<string, string>> {
  const families = userIds.map(() => randomUUID());
  for (let i = 0; i < userIds.length; i += 5_000) {
    await db
      .insertInto('refresh_tokens')
      .values(
        userIds.slice(i, i + 5_000).map((userId, k) => ({
          family_id: families[i + k]!,
          user_id: userId,
          token_hash: `bench-${randomUUID()}`,
          expires_at: new Date(Date.now() + 86_400_000),
        })),
      )
      .execute();
  }
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const now = Math.floor(Date.now() / 1000);
  const out = new Map<string, string>();
  userIds.forEach((sub, k) => {
    const payload = b64url(JSON.stringify({ sub, role, fam: families[k], iat: now, exp: now + 3 * 3600 }));
    const signature = createHmac('sha256', jwtSecret).update(`${header}.${payload}`).digest('base64url');
    out.set(sub, `Bearer ${header}.${payload}.${signature}`);
  });
  return out;
}
