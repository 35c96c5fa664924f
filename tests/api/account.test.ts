import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccount, signIn, startStack, type Stack } from '../helpers/stack';
import { bearer, latestMessage, latestOtp, post } from '../helpers/identity';

/** Spec section 4 sign-in branches, MFA, tokens and logout on the real stack. */
describe('Account: login, MFA, refresh rotation, logout', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  const login = (username: string, password: string) => post(stack.app, '/api/Account/login', { username, password });

  it('signs in with username or email and answers the section-3 user with tokens', async () => {
    const { username, email, password } = demoAccount('User');
    for (const name of [username, email.toUpperCase()]) {
      const r = await login(name, password);
      expect(r.statusCode).toBe(200);
      const data = r.json().data;
      expect(data).toMatchObject({ username, role: 'User', isApplicant: true, isHousingAmbassador: false });
      expect(data.refreshToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(new Date(data.accessTokenExpiresAt).getTime()).toBeGreaterThan(Date.now());
    }
  });

  it("answers 'Login failed' for a wrong password and an unknown user alike", async () => {
    const wrong = await login('applicant', 'nope-nope-1');
    const unknown = await login('nobody-here', 'nope-nope-1');
    for (const r of [wrong, unknown]) {
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ status: 401, message: 'Login failed', data: { code: 'loginFailed' } });
    }
  });

  it("answers 'Tenant Profile not matched' for a tenant without a household, with the email", async () => {
    const tenant = await stack.db.selectFrom('users').select('id').where('username', '=', 'tenant').executeTakeFirstOrThrow();
    await stack.db.deleteFrom('households').where('head_user_id', '=', tenant.id).execute();
    const r = await login('tenant', demoAccount('Tenant').password);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ message: 'Tenant Profile not matched', data: { code: 'tenantProfileNotMatched', email: 'tenant@example.org' } });
  });

  it("answers 'Applicant Profile not matched' with email, first name, last name and phone", async () => {
    await stack.db.updateTable('users').set({ applicant_match_required: true }).where('username', '=', 'admin').execute();
    await stack.db.updateTable('users').set({ role: 'User' }).where('username', '=', 'admin').execute();
    const r = await login('admin', demoAccount('Admin').password);
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({
      message: 'Applicant Profile not matched',
      data: { code: 'applicantProfileNotMatched', email: 'admin@example.org', firstName: 'Dana', lastName: 'Kowalski', phoneNumber: '2125550142' },
    });
    await stack.db.updateTable('users').set({ applicant_match_required: false, role: 'Admin' }).where('username', '=', 'admin').execute();
  });

  it('with MFA: no token at login, an OTP only after the password, a session on the right code', async () => {
    const { password } = demoAccount('Manager');
    const manager = await stack.db.updateTable('users').set({ mfa_enabled: true }).where('username', '=', 'manager').returning('id').executeTakeFirstOrThrow();

    // No OTP may be sent for a user whose password was not just checked.
    const early = await post(stack.app, '/api/Account/send-otp', { userId: manager.id });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('User ID not found for OTP');

    const first = await login('manager', password);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ message: 'OTP verification required. Sending OTP...', data: { userId: manager.id, mfaRequired: true } });
    expect(first.json().data.accessToken).toBeUndefined();

    const sent = await post(stack.app, '/api/Account/send-otp', { userId: manager.id });
    expect(sent.json()).toMatchObject({ status: 200, message: 'OTP sent to your registered contact' });
    const code = await latestOtp(stack.db, manager.id);
    const queued = await latestMessage(stack.db, manager.id, 'otp');
    expect(queued).toMatchObject({ channel: 'email', to_address: 'manager@example.org', status: 'pending' });

    const wrongCode = code === '000000' ? '111111' : '000000';
    const bad = await post(stack.app, '/api/Account/verify-otp', { userId: manager.id, otp: wrongCode });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid OTP');

    const ok = await post(stack.app, '/api/Account/verify-otp', { userId: manager.id, otp: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'OTP verified successfully', data: { userId: manager.id, role: 'Manager' } });
    expect(ok.json().data.accessToken).toBeTruthy();

    // Single use: the same code does not sign in twice.
    const again = await post(stack.app, '/api/Account/verify-otp', { userId: manager.id, otp: code });
    expect(again.statusCode).toBe(400);
    await stack.db.updateTable('users').set({ mfa_enabled: false }).where('id', '=', manager.id).execute();
  });

  it('locks the OTP after five wrong tries even with the right code afterwards', async () => {
    const user = await stack.db.updateTable('users').set({ mfa_enabled: true }).where('username', '=', 'ambassador').returning('id').executeTakeFirstOrThrow();
    await login('ambassador', demoAccount('HousingAmbassador').password);
    await post(stack.app, '/api/Account/send-otp', { userId: user.id });
    const code = await latestOtp(stack.db, user.id);
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) await post(stack.app, '/api/Account/verify-otp', { userId: user.id, otp: wrong });
    const right = await post(stack.app, '/api/Account/verify-otp', { userId: user.id, otp: code });
    expect([400, 429]).toContain(right.statusCode);
    expect(right.json().data.accessToken).toBeUndefined();
    await stack.db.updateTable('users').set({ mfa_enabled: false }).where('id', '=', user.id).execute();
  });

  it('rotates refresh tokens on use; a reused token revokes the whole family and its access tokens', async () => {
    const r = await login('applicant', demoAccount('User').password);
    const first = r.json().data;
    const refreshed = await post(stack.app, '/api/Account/refresh-token', { refreshToken: first.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    const second = refreshed.json().data;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).toBeTruthy();

    // The old token again: reuse. The family dies, including the newest refresh and access tokens.
    const reused = await post(stack.app, '/api/Account/refresh-token', { refreshToken: first.refreshToken });
    expect(reused.statusCode).toBe(401);
    const afterReuse = await post(stack.app, '/api/Account/refresh-token', { refreshToken: second.refreshToken });
    expect(afterReuse.statusCode).toBe(401);
    const details = await stack.app.inject({ url: `/api/Account/getuserdetails/${first.userId}`, headers: bearer(second.accessToken) });
    expect(details.statusCode).toBe(401);
  });

  it('logout revokes the session: its access and refresh tokens stop working', async () => {
    const r = await login('applicant', demoAccount('User').password);
    const { accessToken, refreshToken, userId } = r.json().data;
    expect((await stack.app.inject({ url: `/api/Account/getuserdetails/${userId}`, headers: bearer(accessToken) })).statusCode).toBe(200);
    const out = await post(stack.app, '/api/Account/logout', {}, bearer(accessToken));
    expect(out.statusCode).toBe(200);
    expect((await stack.app.inject({ url: `/api/Account/getuserdetails/${userId}`, headers: bearer(accessToken) })).statusCode).toBe(401);
    expect((await post(stack.app, '/api/Account/refresh-token', { refreshToken })).statusCode).toBe(401);
    expect((await post(stack.app, '/api/Account/logout')).statusCode).toBe(401);
  });

  it('rate-limits failed logins per account with the spec envelope', async () => {
    const target = 'manager';
    let last = await login(target, 'wrong-password-1');
    for (let i = 0; i < 6; i++) last = await login(target, 'wrong-password-1');
    expect(last.statusCode).toBe(429);
    expect(last.json()).toEqual({ status: 429, message: 'Too many attempts. Please wait a few minutes and try again.', data: { code: 'tooManyAttempts' } });
    // Even the right password waits now; other accounts are not affected.
    expect((await login(target, demoAccount('Manager').password)).statusCode).toBe(429);
    expect((await signIn(stack.app, 'User')).authorization).toMatch(/^Bearer /);
  });

  it('never answers 5xx to malformed input on any Account or ProfileMatch route', async () => {
    const bodies = [undefined, 'not json', '{"userId": 12}', '[]', '{"otp": {"$ne": 1}}'];
    const paths = [
      'login', 'logout', 'register', 'send-otp', 'verify-otp', 'forget-password', 'forgot-username/x', 'reset-password', 'refresh-token',
      'senduserregisterotp', 'verifyuserregisterotp', 'impersonate/abc', 'managers/abc/impersonate/def', 'exit-impersonation',
    ].map((p) => `/api/Account/${p}`).concat(
      ['MatchProfile', 'VerifyTenantOtp', 'ReSendOtp', 'SendOtp', 'MatchTenantProfile', 'sendotpforprofilelink/a/b', 'validatelinkprofileotp', 'LeaseUpMatchProfile'].map((p) => `/api/ProfileMatch/${p}`),
    );
    for (const url of paths) {
      for (const body of bodies) {
        const r = await stack.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: body });
        expect(r.statusCode, `${url} ${body}`).toBeLessThan(500);
        expect(r.json()).toHaveProperty('status');
      }
    }
    for (const url of ['verify-email?userId=x&token=y', 'check-reset-token/short', 'emailverified/not-a-uuid', 'getuserdetails/x'].map((p) => `/api/Account/${p}`)
      .concat(['get-building-units/nope', 'fetchApplicantEmailAddress/nope', 'get-buildings-list'].map((p) => `/api/ProfileMatch/${p}`))) {
      const r = await stack.app.inject({ url });
      expect(r.statusCode, url).toBeLessThan(500);
    }
  });

  it('rate-limits sign-in attempts per address across accounts (runs last: it uses up this address)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await login(`someone-${i}`, 'wrong-password-1')).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Even a correct password from this address waits now.
    expect((await login('applicant', demoAccount('User').password)).statusCode).toBe(429);
  });
});
