import { hash as hashUnbounded } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { enqueueNotification } from '../../infra/db/repositories/notification-outbox';
import { isOptedOut } from '../../infra/notifications/sms-opt-outs';
import { MESSAGES, type LoginData, type MfaPendingData, type OtpChannel, type ProfileNotMatchedData, type RegisterBody } from '../../domain';
import type { Db } from '../../infra/db/database';
import type { OneTimePurpose } from '../../infra/db/schema/identity';
import { HttpError } from '../errors';
import { issueLinkToken, issueOtp, LINK_TTL_HOURS, OTP_TTL_MINUTES } from './otp';
import { issueTokens, type SessionSubject } from './tokens';
import { contactOf, findUserForLogin, householdOf, loadSignedInUser, maskEmail, maskPhone } from './users';

// Verifying against a real hash when the user does not exist keeps both answers equally slow.
// Made once, outside the bounded pool: it is the process's own work, not a caller's.
const dummyHash = hashUnbounded('not-a-real-password-0');

export type LoginOutcome =
  | { kind: 'signedIn'; data: LoginData }
  | { kind: 'mfa'; data: MfaPendingData }
  | { kind: 'notMatched'; data: ProfileNotMatchedData }
  | { kind: 'failed' }
  | { kind: 'unverified' };

/** Spec section 4, login: the password check, then the profile-match answers, MFA, or a session. */
export async function login(app: FastifyInstance, caller: string, username: string, password: string): Promise<LoginOutcome> {
  const user = await findUserForLogin(app.db, username);
  const valid = await app.passwords.verify(caller, user?.password_hash ?? (await dummyHash), password);
  if (!user || !valid || user.status !== 'active') return { kind: 'failed' };
  if (!user.email_verified) {
    // The person knows the password but lost the link: a fresh one replaces the old.
    await sendEmailVerification(app.db, user.id);
    return { kind: 'unverified' };
  }
  const contact = { userId: user.id, email: user.email, firstName: user.first_name, lastName: user.last_name, phoneNumber: user.phone_number ?? '' };
  if (user.role === 'Tenant' && !(await householdOf(app.db, user.id))) return { kind: 'notMatched', data: { code: 'tenantProfileNotMatched', ...contact } };
  if (user.role === 'User' && user.applicant_match_required) return { kind: 'notMatched', data: { code: 'applicantProfileNotMatched', ...contact } };
  if (user.mfa_enabled) {
    // The password was right: only now may an OTP be sent for this user (send-otp checks this challenge).
    await issueLinkToken(app.db, user.id, 'login_mfa_challenge', OTP_TTL_MINUTES * 60);
    return { kind: 'mfa', data: { userId: user.id, isMfaEnabled: true, mfaRequired: true } };
  }
  return { kind: 'signedIn', data: await signInAs(app, { userId: user.id, role: user.role }) };
}

/** The section-3 user plus a fresh token pair. */
export async function signInAs(app: FastifyInstance, subject: SessionSubject): Promise<LoginData> {
  const user = await loadSignedInUser(app.db, subject.userId);
  if (!user) throw new HttpError(401, 'loginFailed');
  const tokens = await issueTokens(app, { ...subject, role: user.role });
  return { ...user, ...tokens };
}

/** Where a code really went: the channel it was sent by and the address or number it was sent to. */
export interface OtpSent {
  channel: OtpChannel;
  to: string;
}

/**
 * Sends a fresh OTP of a purpose by email or text. Answers where it went, or false when the user has
 * no such contact. A code asked for by text to a number that texted STOP goes to the email on file
 * instead (the number receives nothing more), and the answer says so.
 */
export async function sendOtp(db: Db, userId: string, purpose: OneTimePurpose, channel: OtpChannel, subject: string | null = null, toOverride?: string | null): Promise<OtpSent | false> {
  let used: OtpChannel = channel;
  let contact = await contactOf(db, userId, channel);
  let to = toOverride ?? contact?.to;
  if (channel === 'sms' && to && (await isOptedOut(db, to))) {
    // A code that confirms the number itself (or a number given for this one code) has no other way to go.
    if (toOverride || purpose === 'register_otp') return false;
    used = 'email';
    contact = await contactOf(db, userId, 'email');
    to = contact?.to;
  }
  if (!contact || !to) return false;
  const language = contact.preferred_language;
  const toAddress = to;
  await db.transaction().execute(async (trx) => {
    const code = await issueOtp(trx, userId, purpose, subject);
    await enqueueNotification(trx, {
      userId,
      channel: used,
      toAddress,
      template: 'otp',
      language,
      params: { code, minutes: OTP_TTL_MINUTES },
    });
  });
  return { channel: used, to: toAddress };
}

/**
 * The answer to a sent code: the channel it really went by and that contact masked, so a person
 * whose number texted STOP learns the code is in their mailbox, not on their phone.
 */
export function otpAnswer(asked: OtpChannel, sent: OtpSent): { data: { otpChannel: OtpChannel; to: string }; message: string } {
  return {
    data: { otpChannel: sent.channel, to: sent.channel === 'sms' ? maskPhone(sent.to) : maskEmail(sent.to) },
    message: sent.channel === asked ? MESSAGES.otpSent : MESSAGES.otpSentByEmailOptedOut,
  };
}

export async function sendEmailVerification(db: Db, userId: string): Promise<void> {
  const contact = await contactOf(db, userId, 'email');
  if (!contact) return;
  await db.transaction().execute(async (trx) => {
    const token = await issueLinkToken(trx, userId, 'verify_email', LINK_TTL_HOURS.verify_email * 3600);
    const path = `/verify-email?userId=${encodeURIComponent(userId)}&token=${encodeURIComponent(token)}`;
    await enqueueNotification(trx, { userId, channel: 'email', toAddress: contact.to, template: 'verify-email', language: contact.preferred_language, params: { firstName: contact.first_name, path } });
  });
}

export async function sendPasswordReset(db: Db, userId: string): Promise<void> {
  const contact = await contactOf(db, userId, 'email');
  if (!contact) return;
  await db.transaction().execute(async (trx) => {
    const token = await issueLinkToken(trx, userId, 'reset_password', LINK_TTL_HOURS.reset_password * 3600);
    const path = `/resetpassword?userId=${encodeURIComponent(userId)}&token=${encodeURIComponent(token)}`;
    await enqueueNotification(trx, { userId, channel: 'email', toAddress: contact.to, template: 'reset-password', language: contact.preferred_language, params: { firstName: contact.first_name, path } });
  });
}

/**
 * Registration (spec section 2): `/register` makes an applicant (User), `/{organization}/register` a
 * tenant of that organisation (who then matches their resident profile), and
 * `/housing-ambassador-register` a housing ambassador. The email must be verified before signing in.
 */
export async function register(db: Db, passwordHash: string, body: RegisterBody & { kind: 'applicant' | 'organization' | 'ambassador' }): Promise<{ userId: string; email: string }> {
  let organizationId: string | null = null;
  if (body.kind === 'organization') {
    const org = await db.selectFrom('organizations').select('id').where('slug', '=', (body.organization ?? '').toLowerCase()).executeTakeFirst();
    if (!org) throw new HttpError(404, 'organizationNotFound');
    organizationId = org.id;
  }
  const role = body.kind === 'organization' ? 'Tenant' : body.kind === 'ambassador' ? 'HousingAmbassador' : 'User';
  if (await findUserForLogin(db, body.username)) throw new HttpError(409, 'usernameTaken');
  if (await findUserForLogin(db, body.email)) throw new HttpError(409, 'emailTaken');
  let userId: string;
  try {
    const row = await db
      .insertInto('users')
      .values({
        username: body.username,
        email: body.email.toLowerCase(),
        phone_number: body.phoneNumber,
        first_name: body.firstName,
        last_name: body.lastName,
        role,
        password_hash: passwordHash,
        organization_id: organizationId,
        preferred_language: body.preferredLanguage ?? 'en',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = row.id;
  } catch (error) {
    // Two registrations racing for one name: the unique index decides.
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, 'usernameTaken');
    throw error;
  }
  if (role === 'HousingAmbassador' && organizationId) {
    await db.insertInto('ambassador_organizations').values({ ambassador_user_id: userId, organization_id: organizationId }).execute();
  }
  await sendEmailVerification(db, userId);
  return { userId, email: body.email.toLowerCase() };
}
