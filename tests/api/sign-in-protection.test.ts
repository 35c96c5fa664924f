import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deactivateUser, reactivateUser } from '../../api/services/admin-users';
import { demoAccount, startStack, type Stack } from '../helpers/stack';
import { bearer, latestMessage, latestOtp } from '../helpers/identity';

/**
 * Attacks on sign-in: limits that hold behind a proxy (X-Forwarded-For is not believed
 * from clients), and no lock-out by strangers (throttles per account and address with Retry-After;
 * devices that signed in before and one-time codes keep the owner in; one counter per account
 * whatever spelling; the owner is told).
 */
describe('sign-in protection', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  const login = (body: Record<string, unknown>, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
    stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: body, remoteAddress, headers });
  const userIdOf = async (username: string) => (await stack.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  it('counts 70 logins with forged X-Forwarded-For against the one real address, exactly as 70 without it', async () => {
    const statuses = async (address: string, forge: boolean) => {
      const out: number[] = [];
      for (let i = 0; i < 70; i++) {
        const headers: Record<string, string> = forge ? { 'x-forwarded-for': `198.51.${Math.floor(i / 250)}.${i % 250}` } : {};
        // A different made-up account each time: only the per-address limit (60 a minute) can stop these.
        out.push((await login({ username: `nobody-${address}-${i}`, password: 'wrong-password-1' }, address, headers)).statusCode);
      }
      return out;
    };
    const forged = await statuses('192.0.2.10', true);
    const plain = await statuses('192.0.2.11', false);
    expect(forged).toEqual(plain);
    expect(forged.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(forged.slice(60).every((s) => s === 429)).toBe(true);
    const refused = await login({ username: 'nobody-more', password: 'x' }, '192.0.2.10', { 'x-forwarded-for': '203.0.113.250' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('after 50 wrong passwords from one address the attacker gets 429 with Retry-After and the owner still signs in', async () => {
    const { username, password } = demoAccount('User');
    // The owner signed in from this browser before: it holds a device token.
    const first = await login({ username, password }, '10.0.0.5');
    expect(first.statusCode).toBe(200);
    const deviceToken = first.json().data.deviceToken as string;
    expect(deviceToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const attacker = '203.0.113.66';
    const answers: number[] = [];
    let last;
    for (let i = 0; i < 50; i++) {
      last = await login({ username, password: `guess-${i}` }, attacker);
      answers.push(last.statusCode);
    }
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5).every((s) => s === 429)).toBe(true);
    expect(last!.json()).toMatchObject({ status: 429, data: { code: 'tooManyAttempts' } });
    const retryAfter = Number(last!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Even the right password from the attacker's address waits.
    expect((await login({ username, password }, attacker)).statusCode).toBe(429);

    // The owner: from their own address, and from the attacker's address with their device token.
    expect((await login({ username, password }, '10.0.0.5')).statusCode).toBe(200);
    expect((await login({ username, password, deviceTokens: [deviceToken] }, attacker)).statusCode).toBe(200);
  });

  it('many addresses guessing one account lock out only devices that never signed in to it; the owner keeps the device and a one-time code', async () => {
    const { username, email, password } = demoAccount('Tenant');
    const userId = await userIdOf(username);
    const device = (await login({ username, password }, '10.1.0.1')).json().data.deviceToken as string;

    // One counter whatever the spelling: username, email, upper case, surrounding spaces.
    const spellings = [username, email, username.toUpperCase(), ` ${email.toUpperCase()} `];
    const answers: number[] = [];
    for (let i = 0; i < 24; i++) answers.push((await login({ username: spellings[i % 4], password: 'not-it-1' }, `198.18.0.${i + 1}`)).statusCode);
    expect(answers.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(answers.slice(20).every((s) => s === 429)).toBe(true);

    // A device that never signed in waits, from any address...
    const fresh = await login({ username, password }, '10.1.0.2');
    expect(fresh.statusCode).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
    // ...the owner's device does not,
    expect((await login({ username, password, deviceTokens: [device] }, '10.1.0.2')).statusCode).toBe(200);
    // and a code sent to the owner's email signs in from a new device too.
    expect((await stack.app.inject({ method: 'POST', url: '/api/Account/send-login-code', payload: { username: email }, remoteAddress: '10.1.0.3' })).statusCode).toBe(200);
    const code = await latestOtp(stack.db, userId);
    const wrong = await stack.app.inject({ method: 'POST', url: '/api/Account/login-with-code', payload: { username, otp: code === '000000' ? '111111' : '000000' }, remoteAddress: '10.1.0.3' });
    expect(wrong.statusCode).toBe(400);
    const byCode = await stack.app.inject({ method: 'POST', url: '/api/Account/login-with-code', payload: { username, otp: code }, remoteAddress: '10.1.0.3' });
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().data).toMatchObject({ username, role: 'Tenant' });
    expect(byCode.json().data.accessToken).toBeTruthy();

    // The owner was told, once.
    const notices = await stack.db.selectFrom('notification_outbox').select('id').where('user_id', '=', userId).where('template', '=', 'sign-in-failures').execute();
    expect(notices).toHaveLength(1);
    expect((await latestMessage(stack.db, userId, 'sign-in-failures'))?.to_address).toBe(email);
  });

  it('answers the same for a login code asked for an unknown account, and sends nothing', async () => {
    const r = await stack.app.inject({ method: 'POST', url: '/api/Account/send-login-code', payload: { username: 'nobody-at-all@example.org' }, remoteAddress: '10.2.0.1' });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toEqual({ sent: true, otpChannel: 'email' });
  });

  it("a device token stops helping once it has failed too often (a stolen one cannot guess the password)", async () => {
    const { username, password } = demoAccount('HousingAmbassador');
    const device = (await login({ username, password }, '10.3.0.1')).json().data.deviceToken as string;
    for (let i = 0; i < 10; i++) expect((await login({ username, password: `nope-${i}`, deviceTokens: [device] }, '10.3.0.9')).statusCode).toBe(401);
    // Now an unknown device again: its own failures from this address count, and the pair throttle applies.
    for (let i = 0; i < 5; i++) await login({ username, password: `nope-x-${i}`, deviceTokens: [device] }, '10.3.0.9');
    expect((await login({ username, password, deviceTokens: [device] }, '10.3.0.9')).statusCode).toBe(429);
  });

  it("a disabled user's access token stops working at once; logout with no body ends the session", async () => {
    const { username, password } = demoAccount('Admin');
    const data = (await login({ username, password }, '10.4.0.1')).json().data;
    const me = () => stack.app.inject({ method: 'GET', url: `/api/Account/getuserdetails/${data.userId}`, headers: bearer(data.accessToken) });
    expect((await me()).statusCode).toBe(200);

    const logout = await stack.app.inject({ method: 'POST', url: '/api/Account/logout', headers: { ...bearer(data.accessToken), 'content-type': 'application/json' } });
    expect(logout.statusCode).toBe(200);
    expect((await me()).statusCode).toBe(401);

    const again = (await login({ username, password }, '10.4.0.1')).json().data;
    const meAgain = () => stack.app.inject({ method: 'GET', url: `/api/Account/getuserdetails/${again.userId}`, headers: bearer(again.accessToken) });
    expect((await meAgain()).statusCode).toBe(200);
    // Deactivated the way the product does it (the admin route's service): the process's cached
    // session check is forgotten with the sessions, so the token stops at once, not when the cache ends.
    const actor = await userIdOf(demoAccount('Manager').username);
    await deactivateUser(stack.db, actor, again.userId);
    expect((await meAgain()).statusCode).toBe(401);
    await reactivateUser(stack.db, actor, again.userId);
  });

  it('a stranger guessing an MFA code slows down at their address; the owner asks for a new code and signs in', async () => {
    const { username, password } = demoAccount('Manager');
    const userId = await userIdOf(username);
    await stack.db.updateTable('users').set({ mfa_enabled: true }).where('id', '=', userId).execute();
    const owner = '10.6.0.1';
    const stranger = '203.0.113.77';
    const post = (url: string, payload: object, remoteAddress: string) => stack.app.inject({ method: 'POST', url, payload, remoteAddress });

    expect((await login({ username, password }, owner)).json().data).toMatchObject({ userId, mfaRequired: true });
    expect((await post('/api/Account/send-otp', { userId }, owner)).statusCode).toBe(200);
    const first = await latestOtp(stack.db, userId);
    const wrong = first === '000000' ? '111111' : '000000';
    const guesses: number[] = [];
    for (let i = 0; i < 8; i++) guesses.push((await post('/api/Account/verify-otp', { userId, otp: wrong }, stranger)).statusCode);
    expect(guesses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(guesses.slice(5).every((s) => s === 429)).toBe(true);
    const blocked = await post('/api/Account/verify-otp', { userId, otp: first }, stranger);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    // The guessed code is dead (five tries), but the owner is not held back: a new code works.
    expect((await post('/api/Account/verify-otp', { userId, otp: first }, owner)).statusCode).toBe(400);
    expect((await post('/api/Account/send-otp', { userId }, owner)).statusCode).toBe(200);
    const second = await latestOtp(stack.db, userId);
    const signedIn = await post('/api/Account/verify-otp', { userId, otp: second }, owner);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data).toMatchObject({ userId, role: 'Manager' });
    await stack.db.updateTable('users').set({ mfa_enabled: false }).where('id', '=', userId).execute();
  });

  it('a reset token is single-use and bound to its user', async () => {
    const { email } = demoAccount('Manager');
    const userId = await userIdOf(demoAccount('Manager').username);
    const otherId = await userIdOf(demoAccount('User').username);
    expect((await stack.app.inject({ method: 'POST', url: '/api/Account/forget-password', payload: { email }, remoteAddress: '10.5.0.1' })).statusCode).toBe(200);
    const link = String((await latestMessage(stack.db, userId, 'reset-password'))?.params.path);
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const reset = (who: string) =>
      stack.app.inject({ method: 'POST', url: '/api/Account/reset-password', payload: { userId: who, token, password: 'New#Passw0rd-2026', confirmPassword: 'New#Passw0rd-2026' }, remoteAddress: '10.5.0.1' });
    expect((await reset(otherId)).statusCode).toBe(410);
    expect((await reset(userId)).statusCode).toBe(200);
    expect((await reset(userId)).statusCode).toBe(410);
    expect((await stack.app.inject({ method: 'GET', url: `/api/Account/check-reset-token/${token}`, remoteAddress: '10.5.0.1' })).statusCode).toBe(410);
  });
});
