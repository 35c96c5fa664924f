import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack';
import { latestMessage, latestOtp, post } from '../helpers/identity';

/** Registration (three paths), register OTP, email verification, password reset, forgotten username, profile matching. */
describe('Account: registration and recovery', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  const person = (n: string, extra: object = {}) => ({
    firstName: 'Rosa',
    lastName: `Diaz${n}`,
    username: `rosa${n}`,
    email: `rosa${n}@example.org`,
    phoneNumber: '(212) 555-0199',
    password: 'Casa#2026x',
    confirmPassword: 'Casa#2026x',
    preferredLanguage: 'es',
    ...extra,
  });
  const linkParams = (path: string) => new URL(`http://x${path}`).searchParams;

  it('registers an applicant, refuses login until the email link is opened, then signs in', async () => {
    const r = await post(stack.app, '/api/Account/register', person('1'));
    expect(r.statusCode).toBe(201);
    const { userId } = r.json().data;
    const user = await stack.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ role: 'User', email_verified: false, organization_id: null, preferred_language: 'es' });
    expect(user.password_hash).toMatch(/^\$argon2/);

    const firstMail = await latestMessage(stack.db, userId, 'verify-email');
    const before = await post(stack.app, '/api/Account/login', { username: 'rosa1', password: 'Casa#2026x' });
    expect(before.statusCode).toBe(403);
    expect(before.json().data.code).toBe('emailNotVerified');

    // Logging in before verifying sends a fresh link; only the newest one works.
    const mail = await latestMessage(stack.db, userId, 'verify-email');
    expect(mail!.id).not.toBe(firstMail!.id);
    const stale = linkParams(String(firstMail!.params.path)).get('token');
    expect((await stack.app.inject({ url: `/api/Account/verify-email?userId=${userId}&token=${stale}` })).statusCode).toBe(400);
    expect(mail).toMatchObject({ channel: 'email', to_address: 'rosa1@example.org', language: 'es' });
    const params = linkParams(String(mail!.params.path));
    const verified = await stack.app.inject({ url: `/api/Account/verify-email?userId=${userId}&token=${params.get('token')}` });
    expect(verified.json()).toMatchObject({ status: 200, message: 'Your email has been verified. You can now log in.' });
    const again = await stack.app.inject({ url: `/api/Account/verify-email?userId=${userId}&token=${params.get('token')}` });
    expect(again.json()).toMatchObject({ status: 400, message: 'Verification failed.' });
    expect((await stack.app.inject({ url: `/api/Account/emailverified/${userId}` })).json().data.emailVerified).toBe(true);

    const after = await post(stack.app, '/api/Account/login', { username: 'rosa1@example.org', password: 'Casa#2026x' });
    expect(after.statusCode).toBe(200);
  });

  it('refuses a taken username, a weak password and mismatched passwords with clear messages', async () => {
    expect((await post(stack.app, '/api/Account/register', person('1'))).json().data.code).toBe('usernameTaken');
    const weak = await post(stack.app, '/api/Account/register', person('2', { password: 'short', confirmPassword: 'short' }));
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Use at least 8 characters with at least one letter and one number.');
    const mismatch = await post(stack.app, '/api/Account/register', person('2', { confirmPassword: 'Other#2026x' }));
    expect(mismatch.json().message).toBe('Passwords do not match.');
  });

  it('/{organization}/register makes a tenant of that organisation; the housing-ambassador path an ambassador', async () => {
    const tenant = await post(stack.app, '/api/Account/register', person('3', { kind: 'organization', organization: 'riverside' }));
    expect(tenant.statusCode).toBe(201);
    const row = await stack.db.selectFrom('users as u').innerJoin('organizations as o', 'o.id', 'u.organization_id').select(['u.role', 'o.slug']).where('u.id', '=', tenant.json().data.userId).executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'Tenant', slug: 'riverside' });
    expect((await post(stack.app, '/api/Account/register', person('4', { kind: 'organization', organization: 'nowhere' }))).json().data.code).toBe('organizationNotFound');
    const amb = await post(stack.app, '/api/Account/register', person('5', { kind: 'ambassador' }));
    const ambRow = await stack.db.selectFrom('users').select('role').where('id', '=', amb.json().data.userId).executeTakeFirstOrThrow();
    expect(ambRow.role).toBe('HousingAmbassador');
  });

  it('confirms the phone with the register OTP', async () => {
    const { userId } = (await post(stack.app, '/api/Account/register', person('6'))).json().data;
    const sent = await post(stack.app, '/api/Account/senduserregisterotp', { userId, otpChannel: 'sms' });
    expect(sent.json().message).toBe('OTP sent to your registered contact');
    expect(await latestMessage(stack.db, userId, 'otp')).toMatchObject({ channel: 'sms', to_address: '(212) 555-0199' });
    const ok = await post(stack.app, '/api/Account/verifyuserregisterotp', { userId, otp: await latestOtp(stack.db, userId) });
    expect(ok.json().message).toBe('OTP verified successfully');
    expect((await stack.db.selectFrom('users').select('phone_verified').where('id', '=', userId).executeTakeFirstOrThrow()).phone_verified).toBe(true);
  });

  it('resets a password through a single-use link; the check answers non-OK once used; sessions end', async () => {
    const login = await post(stack.app, '/api/Account/login', { username: 'applicant', password: 'Applicant#2026' });
    const { userId, refreshToken } = login.json().data;
    const unknown = await post(stack.app, '/api/Account/forget-password', { email: 'nobody@example.org' });
    const known = await post(stack.app, '/api/Account/forget-password', { email: 'applicant@example.org' });
    expect(unknown.json().message).toBe(known.json().message);
    const mail = await latestMessage(stack.db, userId, 'reset-password');
    const token = linkParams(String(mail!.params.path)).get('token')!;

    expect((await stack.app.inject({ url: `/api/Account/check-reset-token/${token}` })).statusCode).toBe(200);
    const mismatch = await post(stack.app, '/api/Account/reset-password', { userId, token, password: 'NewPass#2027', confirmPassword: 'NewPass#2028' });
    expect(mismatch.statusCode).toBe(400);
    const reset = await post(stack.app, '/api/Account/reset-password', { userId, token, password: 'NewPass#2027', confirmPassword: 'NewPass#2027' });
    expect(reset.statusCode).toBe(200);
    const check = await stack.app.inject({ url: `/api/Account/check-reset-token/${token}` });
    expect(check.statusCode).toBe(410);
    expect(check.json().data.code).toBe('linkExpired');
    expect((await post(stack.app, '/api/Account/refresh-token', { refreshToken })).statusCode).toBe(401);
    expect((await post(stack.app, '/api/Account/login', { username: 'applicant', password: 'NewPass#2027' })).statusCode).toBe(200);
    expect((await post(stack.app, '/api/Account/login', { username: 'applicant', password: 'Applicant#2026' })).statusCode).toBe(401);
  });

  it('tells a forgotten username after the OTP, with the same first answer for unknown emails', async () => {
    const first = await post(stack.app, '/api/Account/forgot-username/tenant@example.org', {});
    const unknown = await post(stack.app, '/api/Account/forgot-username/ghost@example.org', {});
    expect(first.json().message).toBe(unknown.json().message);
    const tenant = await stack.db.selectFrom('users').select('id').where('username', '=', 'tenant').executeTakeFirstOrThrow();
    const otp = await latestOtp(stack.db, tenant.id);
    const bad = await post(stack.app, '/api/Account/forgot-username/tenant@example.org', { otp: otp === '000000' ? '000001' : '000000' });
    expect(bad.json().message).toBe('Invalid OTP');
    const ok = await post(stack.app, '/api/Account/forgot-username/tenant@example.org', { otp });
    expect(ok.json().data).toEqual({ username: 'tenant' });
    expect(await latestMessage(stack.db, tenant.id, 'username-reminder')).toBeTruthy();
  });

  it('matches a new tenant account to the resident list by building, unit and identity, with an OTP to the contact on file', async () => {
    const org = await stack.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    const buildingId = '7d0c2f5e-3a61-4c7e-9a55-0f4f1d2b9c11';
    const roster = await stack.db
      .insertInto('tenant_roster')
      .values({ organization_id: org.id, building_id: buildingId, building_name: 'Riverside Commons', building_address: '410 Riverside Dr', unit_number: '4B', first_name: 'Rosa', last_name: 'Diaz7', date_of_birth: '1961-03-14', email: 'rosa.onfile@example.org', phone: '2125550177' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { userId } = (await post(stack.app, '/api/Account/register', person('7', { kind: 'organization', organization: 'riverside' }))).json().data;
    await stack.db.updateTable('users').set({ email_verified: true }).where('id', '=', userId).execute();
    const login = await post(stack.app, '/api/Account/login', { username: 'rosa7', password: 'Casa#2026x' });
    expect(login.json().message).toBe('Tenant Profile not matched');

    const buildings = (await stack.app.inject({ url: '/api/ProfileMatch/get-buildings-list' })).json().data;
    expect(buildings).toContainEqual({ id: buildingId, name: 'Riverside Commons', address: '410 Riverside Dr' });
    expect((await stack.app.inject({ url: `/api/ProfileMatch/get-building-units/${buildingId}` })).json().data).toEqual(['4B']);

    const match = { email: 'rosa7@example.org', buildingId, unitNumber: '4b', firstName: 'rosa', lastName: 'DIAZ7', dateOfBirth: '1961-03-14' };
    const wrong = await post(stack.app, '/api/ProfileMatch/MatchTenantProfile', { ...match, dateOfBirth: '1961-03-15' });
    expect(wrong.statusCode).toBe(404);
    const found = await post(stack.app, '/api/ProfileMatch/MatchTenantProfile', match);
    expect(found.json().data).toMatchObject({ userId, tenantRecordId: roster.id, email: 'ro***@example.org', phone: '******0177' });

    await post(stack.app, '/api/ProfileMatch/SendOtp', { userId, tenantRecordId: roster.id, otpChannel: 'email' });
    expect(await latestMessage(stack.db, userId, 'otp')).toMatchObject({ to_address: 'rosa.onfile@example.org' });
    const verified = await post(stack.app, '/api/ProfileMatch/VerifyTenantOtp', { userId, tenantRecordId: roster.id, otp: await latestOtp(stack.db, userId) });
    expect(verified.statusCode).toBe(200);
    const after = await post(stack.app, '/api/Account/login', { username: 'rosa7', password: 'Casa#2026x' });
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toMatchObject({ role: 'Tenant', organizationId: org.id });
    // The row is taken now.
    expect((await post(stack.app, '/api/ProfileMatch/MatchTenantProfile', match)).statusCode).toBe(404);
  });

  it('links an applicant account made on their behalf after LeaseUpMatchProfile and the link OTP', async () => {
    const { userId } = (await post(stack.app, '/api/Account/register', person('8'))).json().data;
    await stack.db.updateTable('users').set({ applicant_match_required: true, email_verified: true }).where('id', '=', userId).execute();
    expect((await post(stack.app, '/api/Account/login', { username: 'rosa8', password: 'Casa#2026x' })).json().message).toBe('Applicant Profile not matched');
    const m = await post(stack.app, '/api/ProfileMatch/LeaseUpMatchProfile', { email: 'rosa8@example.org', firstName: 'Rosa', lastName: 'Diaz8', phoneNumber: '212-555-0199' });
    expect(m.json().data.userId).toBe(userId);
    await post(stack.app, `/api/ProfileMatch/sendotpforprofilelink/${userId}/email`);
    const ok = await post(stack.app, '/api/ProfileMatch/validatelinkprofileotp', { userId, otp: await latestOtp(stack.db, userId) });
    expect(ok.statusCode).toBe(200);
    expect((await post(stack.app, '/api/Account/login', { username: 'rosa8', password: 'Casa#2026x' })).statusCode).toBe(200);
  });
});
