import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginBody, LoginWithCodeBody, MESSAGES, RefreshTokenBody, SendLoginCodeBody, SendOtpBody, VerifyOtpBody } from '../../domain';
import { signedIn } from '../guards';
import { HttpError } from '../errors';
import { requireSession } from '../plugins/auth';
import { login, otpAnswer, sendOtp, signInAs } from '../services/auth';
import { exitImpersonation, startImpersonation } from '../services/impersonation';
import { consumeCode, hasLiveCode, voidCodes } from '../services/otp';
import { rememberDevice } from '../services/known-devices';
import { assertMayTry, recordSignInFailure, recordSignInSuccess, signInAttempt } from '../services/sign-in-guard';
import { assertNotBlocked, recordFailure } from '../services/sign-in-throttle';
import { field, perAccountFailures, perAddress } from '../services/rate-limits';
import { issueTokens, revokeByToken, revokeFamily, rotateRefreshToken } from '../services/tokens';
import { loadSignedInUser } from '../services/users';
import { accountRecoveryRoutes } from './account-recovery';
import { clearAuthenticated, markAuthenticated } from '../services/auth-marker';
import { MINUTE } from '../../domain/time';
import { Id } from '../../domain/ids';

const userIdParam = z.object({ userId: Id });

/** `/api/Account` (spec sections 4 and 7): sign-in, MFA, tokens, logout, impersonation. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const otpFailures = perAccountFailures(app, 'otp', 5, 15 * MINUTE, field('userId'));
  const otpSends = perAccountFailures(app, 'otp-send', 5, 15 * MINUTE, field('userId'));

  // Spec section 4 login, with throttles that slow a stranger down without locking the owner out
  // (api/services/sign-in-guard.ts): 429 with Retry-After for a blocked account and address.
  app.post('/login', { schema: { body: LoginBody }, preHandler: perAddress(app, 'login', 60, MINUTE) }, async (request, reply) => {
    const attempt = await signInAttempt(app, request, request.body.username, request.body.deviceTokens);
    await assertMayTry(app, attempt);
    const outcome = await login(app, request.ip, request.body.username, request.body.password);
    if (outcome.kind === 'failed') {
      await recordSignInFailure(app, attempt);
      throw new HttpError(401, 'loginFailed');
    }
    await recordSignInSuccess(app, attempt);
    switch (outcome.kind) {
      case 'signedIn':
        markAuthenticated(request, reply);
        return reply.ok({ ...outcome.data, deviceToken: await rememberDevice(app.db, outcome.data.userId, attempt.deviceId) }, 'Login successful');
      case 'mfa':
        return reply.ok(outcome.data, MESSAGES.mfaRequired);
      case 'notMatched':
        // Spec section 4: the client reads this message and goes to the matching page with these details.
        return reply.code(409).send({ status: 409, message: MESSAGES[outcome.data.code], data: outcome.data });
      default:
        throw new HttpError(403, 'emailNotVerified');
    }
  });

  // A sign-in code by email: the owner's way in while strangers keep the password throttled.
  // Same answer whether or not the account exists; sends per account and address are limited.
  app.post('/send-login-code', { schema: { body: SendLoginCodeBody }, preHandler: perAddress(app, 'login-code-send', 10, MINUTE) }, async (request, reply) => {
    const attempt = await signInAttempt(app, request, request.body.username, [], 'login-code-send');
    await assertNotBlocked(app.db, [attempt.pairKey]);
    await recordFailure(app.db, attempt.pairKey, { free: 3, windowMs: 15 * MINUTE, firstDelayMs: MINUTE, maxDelayMs: 15 * MINUTE });
    const user = attempt.user;
    if (user && user.status === 'active' && user.email_verified) await sendOtp(app.db, user.id, 'login_code', 'email');
    // A sign-in code only ever goes by email; naming the address would say whether the account exists.
    return reply.ok({ sent: true, otpChannel: 'email' }, MESSAGES.otpSent);
  });

  app.post('/login-with-code', { schema: { body: LoginWithCodeBody }, preHandler: perAddress(app, 'login-code', 30, MINUTE) }, async (request, reply) => {
    const attempt = await signInAttempt(app, request, request.body.username, request.body.deviceTokens, 'login-code');
    await assertNotBlocked(app.db, [attempt.pairKey]);
    const user = attempt.user;
    const check = user && user.status === 'active' ? await consumeCode(app.db, user.id, 'login_code', request.body.otp) : { ok: false as const };
    if (!user || !check.ok) {
      await recordFailure(app.db, attempt.pairKey, { free: 5, windowMs: 15 * MINUTE, firstDelayMs: 30_000, maxDelayMs: 15 * MINUTE });
      throw new HttpError(400, 'invalidOtp');
    }
    await recordSignInSuccess(app, attempt);
    const data = await signInAs(app, { userId: user.id, role: user.role });
    return reply.ok({ ...data, deviceToken: await rememberDevice(app.db, user.id, attempt.deviceId) }, MESSAGES.otpVerified);
  });

  app.post('/send-otp', { schema: { body: SendOtpBody }, preHandler: [perAddress(app, 'send-otp', 20, MINUTE), otpSends.guard] }, async (request, reply) => {
    const { userId, otpChannel = 'email' } = request.body;
    // Only after the password was checked (the login challenge) may a sign-in code be sent.
    if (!(await hasLiveCode(app.db, userId, 'login_mfa_challenge'))) throw new HttpError(400, 'userIdNotFoundForOtp');
    await otpSends.fail(request);
    const sent = await sendOtp(app.db, userId, 'login_otp', otpChannel);
    if (!sent) throw new HttpError(422, 'otpSendFailed');
    const answer = otpAnswer(otpChannel, sent);
    return reply.ok({ userId, ...answer.data }, answer.message);
  });

  app.post('/verify-otp', { schema: { body: VerifyOtpBody }, preHandler: [perAddress(app, 'verify-otp', 30, MINUTE), otpFailures.guard] }, async (request, reply) => {
    const { userId, otp } = request.body;
    if (!(await hasLiveCode(app.db, userId, 'login_mfa_challenge'))) throw new HttpError(400, 'userIdNotFoundForOtpVerification');
    const check = await consumeCode(app.db, userId, 'login_otp', otp);
    if (!check.ok) {
      await otpFailures.fail(request);
      throw new HttpError(400, 'invalidOtp');
    }
    await voidCodes(app.db, userId, 'login_mfa_challenge');
    await otpFailures.succeed(request);
    const user = await app.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow();
    const data = await signInAs(app, { userId, role: user.role });
    markAuthenticated(request, reply);
    return reply.ok({ ...data, deviceToken: await rememberDevice(app.db, userId, null) }, MESSAGES.otpVerified);
  });

  app.post('/refresh-token', { schema: { body: RefreshTokenBody }, preHandler: perAddress(app, 'refresh', 60, MINUTE) }, async (request, reply) => {
    const result = await rotateRefreshToken(app.db, request.body.refreshToken);
    if (!result.ok) throw new HttpError(401, 'refreshFailed');
    const tokens = await issueTokens(app, result.subject, result.familyId);
    markAuthenticated(request, reply);
    return reply.ok(tokens, 'Token refreshed');
  });

  // No body, an empty body or {} all log out (api/plugins/input-safety.ts reads an empty JSON body as none).
  app.post('/logout', { preHandler: requireSession, schema: { body: z.object({ refreshToken: z.string().max(200).optional() }).nullish() } }, async (request, reply) => {
    if (request.session.familyId) await revokeFamily(app.db, request.session.familyId);
    if (request.body?.refreshToken) await revokeByToken(app.db, request.body.refreshToken);
    clearAuthenticated(reply);
    return reply.ok(null, 'Logged out');
  });

  app.get('/getuserdetails/:userId', { preHandler: requireSession, schema: { params: userIdParam } }, async (request, reply) => {
    if (request.params.userId !== request.session.userId) throw new HttpError(403, 'forbidden');
    return reply.ok(await loadSignedInUser(app.db, request.params.userId));
  });

  app.post('/impersonate/:userId', { preHandler: signedIn('ambassador'), schema: { params: userIdParam } }, async (request, reply) =>
    reply.ok(await startImpersonation(app, request.session, request.params.userId, 'ambassador'), 'Impersonation started'),
  );

  app.post(
    '/managers/:managerId/impersonate/:userId',
    { preHandler: signedIn('manager'), schema: { params: z.object({ managerId: Id, userId: Id }) } },
    async (request, reply) => {
      if (request.params.managerId !== request.session.userId) throw new HttpError(403, 'forbidden');
      return reply.ok(await startImpersonation(app, request.session, request.params.userId, 'manager'), 'Impersonation started');
    },
  );

  app.post('/exit-impersonation', { preHandler: requireSession, config: { endsImpersonation: true } }, async (request, reply) =>
    reply.ok(await exitImpersonation(app, request.session), 'Impersonation ended'),
  );

  await app.register(accountRecoveryRoutes);
};
