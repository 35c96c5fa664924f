import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOptedOut } from '../../infra/notifications/sms-opt-outs';
import { latestMessage, post } from '../helpers/identity';
import { demoAccount, signIn, startStack, type Stack } from '../helpers/stack';

const PHONE = '(718) 555-0177';

/**
 * Every route that sends a one-time code says where it really went: a code asked for by text to a
 * number that texted STOP goes by email, and the answer names email and the masked address.
 */
describe('one-time codes to a number that texted STOP', () => {
  let stack: Stack;
  let applicant: { authorization: string; userId: string };
  let email: string;
  let maskedEmail: string;

  beforeAll(async () => {
    stack = await startStack({ worker: false });
    applicant = await signIn(stack.app, 'User');
    const user = await stack.db.updateTable('users').set({ phone_number: PHONE }).where('id', '=', applicant.userId).returning('email').executeTakeFirstOrThrow();
    email = user.email;
    maskedEmail = `${email.slice(0, 2)}***@${email.split('@')[1]}`;
    // What the inbound STOP webhook records.
    await setOptedOut(stack.db, PHONE, true);
  });
  afterAll(() => stack?.close());

  /** The answer names email and the masked address, and the code was queued to that address. */
  const expectSentByEmail = async (response: { statusCode: number; json: () => { data: Record<string, unknown>; message: string } }) => {
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data).toMatchObject({ otpChannel: 'email', to: maskedEmail });
    expect(body.message).toContain('opted out of text messages');
    const queued = await latestMessage(stack.db, applicant.userId, 'otp');
    expect(queued).toMatchObject({ channel: 'email', to_address: email });
  };

  it('sign-in send-otp', async () => {
    await stack.db.updateTable('users').set({ mfa_enabled: true }).where('id', '=', applicant.userId).execute();
    const { username, password } = demoAccount('User');
    const login = await post(stack.app, '/api/Account/login', { username, password });
    expect(login.json().data).toMatchObject({ mfaRequired: true });
    await expectSentByEmail(await post(stack.app, '/api/Account/send-otp', { userId: applicant.userId, otpChannel: 'sms' }));
    await stack.db.updateTable('users').set({ mfa_enabled: false }).where('id', '=', applicant.userId).execute();
  });

  it('forgot-username', async () => {
    await expectSentByEmail(await post(stack.app, `/api/Account/forgot-username/${encodeURIComponent(email)}`, { otpChannel: 'sms' }));
  });

  it('signature change', async () => {
    await expectSentByEmail(await post(stack.app, '/api/Signature/generateotpforchangesignrature', { otpChannel: 'sms' }, { authorization: applicant.authorization }));
  });

  it('profile link', async () => {
    await stack.db.updateTable('users').set({ applicant_match_required: true }).where('id', '=', applicant.userId).execute();
    await expectSentByEmail(await post(stack.app, `/api/ProfileMatch/sendotpforprofilelink/${applicant.userId}/sms`));
  });

  it('a code that confirms the number itself is not sent to it, nor elsewhere', async () => {
    await stack.db.updateTable('users').set({ phone_verified: false }).where('id', '=', applicant.userId).execute();
    const before = await latestMessage(stack.db, applicant.userId, 'otp');
    const refused = await post(stack.app, '/api/Account/senduserregisterotp', { userId: applicant.userId, otpChannel: 'sms' });
    expect(refused.statusCode).toBe(422);
    expect((await latestMessage(stack.db, applicant.userId, 'otp'))?.id).toBe(before?.id);
  });

  it("the signature code by text with no phone on file says 'No phone number added', and by email it goes", async () => {
    const tenant = await signIn(stack.app, 'Tenant');
    await stack.db.updateTable('users').set({ phone_number: null }).where('id', '=', tenant.userId).execute();
    const bySms = await post(stack.app, '/api/Signature/generateotpforchangesignrature', { otpChannel: 'sms' }, { authorization: tenant.authorization });
    expect(bySms.statusCode).toBe(422);
    expect(bySms.json()).toMatchObject({ status: 422, data: { code: 'noPhoneNumber' } });
    expect(bySms.json().message).toMatch(/^No phone number added/);
    const byEmail = await post(stack.app, '/api/Signature/generateotpforchangesignrature', { otpChannel: 'email' }, { authorization: tenant.authorization });
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json().data).toMatchObject({ otpChannel: 'email' });
  });
});
