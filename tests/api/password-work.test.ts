import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PasswordWork } from '../../api/services/password-work';
import { startStack, type Stack } from '../helpers/stack';
import { latestMessage, post } from '../helpers/identity';

/** A task that runs until the test lets it finish, and says when it started. */
function heldTask(name: string, started: string[]) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { finish, task: () => (started.push(name), done.then(() => name)) };
}

/** Lets every promise continuation that is ready run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Password checks: a bounded pool, callers served in turn', () => {
  afterEach(() => vi.useRealTimers());

  it('runs at most `atOnce` together and serves waiting callers in turn, not in arrival order', async () => {
    const work = new PasswordWork({ atOnce: 1, perCaller: 4 });
    const started: string[] = [];
    const tasks = ['a1', 'a2', 'a3', 'a4'].map((n) => heldTask(n, started));
    const b1 = heldTask('b1', started);
    const runs = tasks.map((t) => work.run('address-a', t.task));
    const runB = work.run('address-b', b1.task);
    await settle();
    expect(started).toEqual(['a1']);
    expect(work.waiting).toBe(4);

    tasks[0]!.finish();
    await settle();
    // a2 was first in address-a's queue; address-b is next in turn, before a3 and a4.
    expect(started).toEqual(['a1', 'a2']);
    tasks[1]!.finish();
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    b1.finish();
    tasks[2]!.finish();
    tasks[3]!.finish();
    expect(await Promise.all([...runs, runB])).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('refuses at once, with 429 serverBusy and Retry-After, a caller that already has its share waiting', async () => {
    const work = new PasswordWork({ atOnce: 1, perCaller: 2, maxWaitMs: 2_000 });
    const started: string[] = [];
    const held = heldTask('first', started);
    const first = work.run('busy', held.task);
    const waiting = [work.run('busy', async () => 'w1'), work.run('busy', async () => 'w2')];
    await expect(work.run('busy', async () => 'w3')).rejects.toMatchObject({ statusCode: 429, code: 'serverBusy', retryAfterSeconds: 2 });
    // Another caller still gets its place.
    const other = work.run('other', async () => 'o1');
    held.finish();
    expect(await Promise.all([first, ...waiting, other])).toEqual(['first', 'w1', 'w2', 'o1']);
  });

  it('refuses a check that waited its longest, without running it', async () => {
    vi.useFakeTimers();
    const work = new PasswordWork({ atOnce: 1, maxWaitMs: 500 });
    const started: string[] = [];
    const held = heldTask('holder', started);
    const holder = work.run('a', held.task);
    const late = vi.fn(async () => 'late');
    const waiting = work.run('b', late);
    const refused = expect(waiting).rejects.toMatchObject({ statusCode: 429, code: 'serverBusy' });
    await vi.advanceTimersByTimeAsync(500);
    await refused;
    expect(work.waiting).toBe(0);
    held.finish();
    await holder;
    expect(late).not.toHaveBeenCalled();
  });
});

describe('Password checks through the API', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { PASSWORD_CHECKS_AT_ONCE: '1', PASSWORD_CHECK_MAX_WAIT_MS: '100' } });
  });
  afterAll(() => stack?.close());

  /** Takes the only slot until the returned function is called. */
  function occupy(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    void stack.app.passwords.run('someone-else', () => held);
    return release;
  }

  it('answers a sign-in that finds every check busy with 429 serverBusy and Retry-After, and signs in on the retry', async () => {
    const release = occupy();
    const busy = await post(stack.app, '/api/Account/login', { username: 'applicant', password: 'Applicant#2026' });
    release();
    expect(busy.statusCode).toBe(429);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toMatchObject({ status: 429, data: { code: 'serverBusy' } });
    expect(busy.json().message).toMatch(/try again/);
    const retry = await post(stack.app, '/api/Account/login', { username: 'applicant', password: 'Applicant#2026' });
    expect(retry.statusCode).toBe(200);
  });

  it('keeps the reset link usable when the reset was refused as busy', async () => {
    const user = await stack.db.selectFrom('users').select('id').where('username', '=', 'applicant').executeTakeFirstOrThrow();
    await post(stack.app, '/api/Account/forget-password', { email: 'applicant@example.org' });
    const mail = await latestMessage(stack.db, user.id, 'reset-password');
    const token = new URL(`http://x${String(mail!.params.path)}`).searchParams.get('token')!;
    const body = { userId: user.id, token, password: 'Busy#Reset2027', confirmPassword: 'Busy#Reset2027' };

    const release = occupy();
    const busy = await post(stack.app, '/api/Account/reset-password', body);
    release();
    expect(busy.json().data.code).toBe('serverBusy');
    const retry = await post(stack.app, '/api/Account/reset-password', body);
    expect(retry.statusCode).toBe(200);
    expect((await post(stack.app, '/api/Account/login', { username: 'applicant', password: 'Busy#Reset2027' })).statusCode).toBe(200);
  });
});
