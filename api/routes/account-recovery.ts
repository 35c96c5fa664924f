import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { enqueueNotification } from '../../infra/db/repositories/notification-outbox';
import { ForgetPasswordBody, ForgotUsernameBody, MESSAGES, RegisterBody, RegisterOtpBody, ResetPasswordBody, VerifyEmailQuery, VerifyRegisterOtpBody } from '../../domain';
import { HttpError } from '../errors';
import { otpAnswer, register, sendOtp, sendPasswordReset } from '../services/auth';
import { consumeCode, hashCode } from '../services/otp';
import { field, perAccountFailures, perAddress } from '../services/rate-limits';
import { forgetDevices } from '../services/known-devices';
import { revokeAllForUser } from '../services/tokens';
import { findUserForLogin, maskEmail, maskPhone } from '../services/users';
import { MINUTE } from '../../domain/time';
import { Id, LinkToken, PATH_TEXT_MAX } from '../../domain/ids';

/**
 * `/api/Account`: registration with register OTP and email verification, forgotten password and
 * username (spec sections 2, 7, 8). Answers never reveal whether an email has an account, except
 * registration, which must say the address is taken.
 */
export const accountRecoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const emailKey = (request: { params: unknown; body: unknown }) => {
    const p = request.params as { x?: string };
    return p.x ?? field('email')(request as never);
  };
  const otpFailures = perAccountFailures(app, 'register-otp', 5, 15 * MINUTE, field('userId'));
  const resetRequests = perAccountFailures(app, 'forget-password', 3, 15 * MINUTE, field('email'));
  const usernameFailures = perAccountFailures(app, 'forgot-username', 5, 15 * MINUTE, emailKey as never);

  app.post('/register', { schema: { body: RegisterBody }, preHandler: perAddress(app, 'register', 20, MINUTE) }, async (request, reply) => {
    const created = await register(app.db, await app.passwords.hash(request.ip, request.body.password), request.body);
    return reply.ok(created, 'Registration successful. Please check your email to verify your address.', 201);
  });

  app.post('/senduserregisterotp', { schema: { body: RegisterOtpBody }, preHandler: [perAddress(app, 'register-otp-send', 10, MINUTE), otpFailures.guard] }, async (request, reply) => {
    const { userId, otpChannel = 'sms' } = request.body;
    const user = await app.db.selectFrom('users').select(['phone_verified', 'created_at']).where('id', '=', userId).executeTakeFirst();
    // Only a new account whose phone is not yet confirmed gets a registration code.
    if (!user || user.phone_verified) throw new HttpError(400, 'userIdNotFoundForOtp');
    await otpFailures.fail(request);
    const sent = await sendOtp(app.db, userId, 'register_otp', otpChannel, otpChannel);
    if (!sent) throw new HttpError(422, 'otpSendFailed');
    const answer = otpAnswer(otpChannel, sent);
    return reply.ok({ userId, ...answer.data }, answer.message);
  });

  app.post('/verifyuserregisterotp', { schema: { body: VerifyRegisterOtpBody }, preHandler: [perAddress(app, 'register-otp', 30, MINUTE), otpFailures.guard] }, async (request, reply) => {
    const check = await consumeCode(app.db, request.body.userId, 'register_otp', request.body.otp);
    if (!check.ok) {
      await otpFailures.fail(request);
      throw new HttpError(400, 'invalidOtp');
    }
    await app.db
      .updateTable('users')
      .set(check.subject === 'email' ? { email_verified: true } : { phone_verified: true })
      .where('id', '=', request.body.userId)
      .execute();
    return reply.ok({ userId: request.body.userId, verified: check.subject ?? 'sms' }, MESSAGES.otpVerified);
  });

  app.get('/verify-email', { schema: { querystring: VerifyEmailQuery }, preHandler: perAddress(app, 'verify-email', 30, MINUTE) }, async (request, reply) => {
    const check = await consumeCode(app.db, request.query.userId, 'verify_email', request.query.token);
    if (!check.ok) throw new HttpError(400, 'emailVerificationFailed');
    await app.db.updateTable('users').set({ email_verified: true }).where('id', '=', request.query.userId).execute();
    return reply.ok({ userId: request.query.userId, emailVerified: true }, MESSAGES.emailVerified);
  });

  app.get('/emailverified/:x', { schema: { params: z.object({ x: Id }) } }, async (request, reply) => {
    const user = await app.db.selectFrom('users').select('email_verified').where('id', '=', request.params.x).executeTakeFirst();
    return reply.ok({ emailVerified: user?.email_verified ?? false });
  });

  app.post('/forget-password', { schema: { body: ForgetPasswordBody }, preHandler: [perAddress(app, 'forget-password', 10, MINUTE), resetRequests.guard] }, async (request, reply) => {
    await resetRequests.fail(request);
    const user = await findUserForLogin(app.db, request.body.email);
    if (user && user.status === 'active') await sendPasswordReset(app.db, user.id);
    return reply.ok(null, 'If an account exists for this address, we sent a link to reset the password.');
  });

  app.get('/check-reset-token/:x', { schema: { params: z.object({ x: LinkToken }) }, preHandler: perAddress(app, 'check-reset', 30, MINUTE) }, async (request, reply) => {
    const row = await app.db
      .selectFrom('one_time_codes')
      .select('user_id')
      .where('code_hash', '=', hashCode(request.params.x))
      .where('purpose', '=', 'reset_password')
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    if (!row) throw new HttpError(410, 'linkExpired');
    return reply.ok({ valid: true, userId: row.user_id });
  });

  app.post('/reset-password', { schema: { body: ResetPasswordBody }, preHandler: perAddress(app, 'reset-password', 10, MINUTE) }, async (request, reply) => {
    const { userId, token, password } = request.body;
    // Hashed before the link is used up: a reset refused as busy leaves the link working for the retry.
    const passwordHash = await app.passwords.hash(request.ip, password);
    const check = await consumeCode(app.db, userId, 'reset_password', token);
    if (!check.ok) throw new HttpError(410, 'linkExpired');
    await app.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    // A new password ends every session, in case the old one was known to someone else.
    await revokeAllForUser(app.db, userId);
    await forgetDevices(app.db, userId);
    return reply.ok(null, 'Your password has been reset. You can now log in.');
  });

  app.post(
    '/forgot-username/:x',
    { schema: { params: z.object({ x: z.string().trim().min(3).max(PATH_TEXT_MAX) }), body: ForgotUsernameBody.optional() }, preHandler: [perAddress(app, 'forgot-username', 10, MINUTE), usernameFailures.guard] },
    async (request, reply) => {
      const user = await findUserForLogin(app.db, request.params.x);
      const channel = request.body?.otpChannel ?? 'email';
      if (!request.body?.otp) {
        await usernameFailures.fail(request);
        const sent = user && user.status === 'active' ? await sendOtp(app.db, user.id, 'forgot_username', channel) : false;
        // Where the code really went (a number that texted STOP gets it by email); with no code sent,
        // the answer an account would get for the channel asked.
        if (sent) {
          const answer = otpAnswer(channel, sent);
          return reply.ok({ sent: true, ...answer.data }, answer.message);
        }
        return reply.ok({ sent: true, otpChannel: channel, to: channel === 'sms' ? maskPhone(user?.phone_number) : maskEmail(request.params.x) }, MESSAGES.otpSent);
      }
      const check = user ? await consumeCode(app.db, user.id, 'forgot_username', request.body.otp) : { ok: false as const };
      if (!user || !check.ok) {
        await usernameFailures.fail(request);
        throw new HttpError(400, 'invalidOtp');
      }
      await enqueueNotification(app.db, {
        userId: user.id,
        channel: 'email',
        toAddress: user.email,
        template: 'username-reminder',
        language: user.preferred_language,
        params: { firstName: user.first_name, username: user.username },
      });
      return reply.ok({ username: user.username }, MESSAGES.otpVerified);
    },
  );
};
