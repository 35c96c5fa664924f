import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { latestMessage, latestOtp, post } from '../helpers/identity';
import { getSavedSignature } from '../../api/services/signatures';
import { grantAccess, organizationId } from '../helpers/ambassador';

// A 1x1 transparent PNG: a real image the signature checks accept.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Impersonation (spec sections 4 and 6), the audit log, and what is refused while impersonating. */
describe('Account: impersonation, profile settings and signature', () => {
  let stack: Stack;
  let tenantId: string;
  let applicantId: string;
  beforeAll(async () => {
    stack = await startStack();
    tenantId = (await stack.db.selectFrom('users').select('id').where('username', '=', 'tenant').executeTakeFirstOrThrow()).id;
    applicantId = (await stack.db.selectFrom('users').select('id').where('username', '=', 'applicant').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => stack?.close());

  it('an ambassador acts for a user of their organisation; every request and the exit are audited with both users', async () => {
    const amb = await signIn(stack.app, 'HousingAmbassador');
    // The tenant's household granted access to the organisation (the grant flow is in consented-access.test.ts).
    await grantAccess(stack.db, { userId: tenantId, organizationId: await organizationId(stack.db), requestedBy: amb.userId });
    const start = await post(stack.app, `/api/Account/impersonate/${tenantId}`, {}, { authorization: amb.authorization });
    expect(start.statusCode).toBe(200);
    const data = start.json().data;
    expect(data).toMatchObject({ isImpersonating: true, user: { userId: tenantId, role: 'Tenant' }, realUser: { userId: amb.userId, role: 'HousingAmbassador' } });
    const acting = { authorization: `Bearer ${data.accessToken}` };

    const profile = await stack.app.inject({ url: '/api/UserProfile/Profile', headers: acting });
    expect(profile.json().data.userId).toBe(tenantId);

    // Credential changes and signing are refused while impersonating.
    const sig = await stack.app.inject({ method: 'PUT', url: '/api/UserProfile/Profile/Signature', headers: acting, payload: { signatureBase64: PNG } });
    expect(sig.statusCode).toBe(403);
    expect(sig.json().message).toBe('This is not allowed while acting for another user.');
    expect((await post(stack.app, '/api/Signature/generateotpforchangesignrature', { otpChannel: 'email' }, acting)).statusCode).toBe(403);
    expect((await stack.app.inject({ method: 'PUT', url: '/api/UserProfile/Profile', headers: acting, payload: { firstName: 'X', lastName: 'Y', phoneNumber: '2125550000' } })).statusCode).toBe(403);
    // No impersonation inside an impersonation.
    expect((await post(stack.app, `/api/Account/impersonate/${applicantId}`, {}, acting)).statusCode).toBe(403);

    // The refresh token of an impersonated session stays impersonated.
    const refreshed = await post(stack.app, '/api/Account/refresh-token', { refreshToken: data.refreshToken });
    const claims = stack.app.jwt.decode<{ sub: string; realUserId: string }>(refreshed.json().data.accessToken)!;
    expect(claims).toMatchObject({ sub: tenantId, realUserId: amb.userId });

    const exit = await post(stack.app, '/api/Account/exit-impersonation', {}, { authorization: `Bearer ${refreshed.json().data.accessToken}` });
    expect(exit.statusCode).toBe(200);
    expect(exit.json().data).toMatchObject({ userId: amb.userId, role: 'HousingAmbassador' });
    // The impersonation session is over.
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers: acting })).statusCode).toBe(401);

    // Six requests were made with the impersonated token (the exit itself included); onResponse writes them.
    const audit = await eventually(async () => {
      const rows = await stack.db.selectFrom('impersonation_audit').selectAll().where('real_user_id', '=', amb.userId).orderBy('id').execute();
      return rows.filter((r) => r.event === 'request').length === 6 ? rows : undefined;
    });
    expect(audit[0]!.event).toBe('start');
    expect(audit.filter((a) => a.event === 'exit')).toHaveLength(1);
    expect(audit.every((a) => a.acting_user_id === tenantId)).toBe(true);
    expect(audit.find((a) => a.path === '/api/UserProfile/Profile/Signature')).toMatchObject({ method: 'PUT', status_code: 403 });
  });

  it('an ambassador cannot act for staff or for users outside their organisations', async () => {
    const amb = await signIn(stack.app, 'HousingAmbassador');
    const manager = await signIn(stack.app, 'Manager');
    // The demo applicant has no organisation and granted nothing.
    expect((await post(stack.app, `/api/Account/impersonate/${applicantId}`, {}, { authorization: amb.authorization })).json().data.code).toBe('accessNotGranted');
    expect((await post(stack.app, `/api/Account/impersonate/${manager.userId}`, {}, { authorization: amb.authorization })).statusCode).toBe(403);
    // Only ambassadors use this path.
    expect((await post(stack.app, `/api/Account/impersonate/${tenantId}`, {}, { authorization: manager.authorization })).statusCode).toBe(403);
  });

  it('a manager acts, as a manager, only for households of their organisation', async () => {
    const manager = await signIn(stack.app, 'Manager');
    const other = await post(stack.app, `/api/Account/managers/${tenantId}/impersonate/${tenantId}`, {}, { authorization: manager.authorization });
    expect(other.statusCode).toBe(403);
    const outside = await post(stack.app, `/api/Account/managers/${manager.userId}/impersonate/${applicantId}`, {}, { authorization: manager.authorization });
    expect(outside.statusCode).toBe(403);
    const ok = await post(stack.app, `/api/Account/managers/${manager.userId}/impersonate/${tenantId}`, {}, { authorization: manager.authorization });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.realUser.userId).toBe(manager.userId);
    const audit = await stack.db.selectFrom('impersonation_audit').selectAll().where('real_user_id', '=', manager.userId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ event: 'start', acting_user_id: tenantId });
  });

  it('settings: language, font size (invalid becomes medium) and notifications', async () => {
    const user = await signIn(stack.app, 'User');
    const save = (payload: object) => stack.app.inject({ method: 'POST', url: '/api/UserProfile/settings', headers: user, payload });
    expect((await save({ preferredReadingLanguage: 'bn', fontSize: 'large', notifyBySms: true })).json().data).toMatchObject({ preferredReadingLanguage: 'bn', fontSize: 'large', notifyBySms: true, notifyByEmail: true });
    expect((await save({ fontSize: 'gigantic' })).json().data.fontSize).toBe('medium');
    expect((await save({ preferredReadingLanguage: 'fr' })).statusCode).toBe(400);
    expect((await stack.app.inject({ url: '/api/UserProfile/settings', headers: user })).json().data).toMatchObject({ preferredReadingLanguage: 'bn', fontSize: 'medium' });
  });

  it('a signature changes only after the OTP validation, once per validation, and is readable by getSavedSignature', async () => {
    const user = await signIn(stack.app, 'User');
    const put = () => stack.app.inject({ method: 'PUT', url: '/api/UserProfile/Profile/Signature', headers: user, payload: { signatureBase64: `data:image/png;base64,${PNG}`, autoGenerateRequest: true } });
    expect((await put()).json().data.code).toBe('signatureOtpRequired');
    const empty = await stack.app.inject({ method: 'PUT', url: '/api/UserProfile/Profile/Signature', headers: user, payload: { signatureBase64: 'aGVsbG8=' } });
    expect(empty.json()).toMatchObject({ status: 400, message: 'Empty signature cannot be saved' });

    await post(stack.app, '/api/Signature/generateotpforchangesignrature', { otpChannel: 'email' }, user);
    const otp = await latestOtp(stack.db, user.userId);
    expect((await stack.app.inject({ url: `/api/Signature/validateotp/otp/${otp === '000000' ? '000001' : '000000'}`, headers: user })).statusCode).toBe(400);
    expect((await stack.app.inject({ url: `/api/Signature/validateotp/otp/${otp}`, headers: user })).json().message).toBe('OTP verified successfully');
    const saved = await put();
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ hasSignature: true, signatureKind: 'typed' });
    expect((await put()).statusCode).toBe(403);

    const stored = await getSavedSignature(stack.db, stack.blobs, user.userId);
    expect(stored?.png.equals(Buffer.from(PNG, 'base64'))).toBe(true);
    expect(await getSavedSignature(stack.db, stack.blobs, tenantId)).toBeNull();
  });
  it("an ambassador's password reset ends their acting-for sessions too: refresh and access tokens are refused", async () => {
    const amb = await signIn(stack.app, 'HousingAmbassador');
    // The tenant's grant to the ambassador's organisation is still open (first test).
    const start = await post(stack.app, `/api/Account/impersonate/${tenantId}`, {}, { authorization: amb.authorization });
    expect(start.statusCode).toBe(200);
    const { accessToken, refreshToken } = start.json().data;
    const acting = { authorization: `Bearer ${accessToken}` };
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers: acting })).statusCode).toBe(200);

    const email = (await stack.db.selectFrom('users').select('email').where('id', '=', amb.userId).executeTakeFirstOrThrow()).email;
    expect((await post(stack.app, '/api/Account/forget-password', { email })).statusCode).toBe(200);
    const mail = await latestMessage(stack.db, amb.userId, 'reset-password');
    const token = new URL(`http://x${String(mail!.params.path)}`).searchParams.get('token')!;
    const reset = await post(stack.app, '/api/Account/reset-password', { userId: amb.userId, token, password: 'Ambassador#2027x', confirmPassword: 'Ambassador#2027x' });
    expect(reset.statusCode).toBe(200);

    expect((await post(stack.app, '/api/Account/refresh-token', { refreshToken })).statusCode).toBe(401);
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers: acting })).statusCode).toBe(401);
    // The ambassador's own session ended as before.
    expect((await stack.app.inject({ url: '/api/UserProfile/Profile', headers: { authorization: amb.authorization } })).statusCode).toBe(401);
  });
});
