import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LoginBody, MESSAGES, RefreshTokenBody, SendOtpBody, VerifyOtpBody } from '../../domain';
import { signedIn } from '../guards';
import { HttpError } from '../errors';
import { requireSession } from '../plugins/auth';
import { login, sendOtp, signInAs } from '../services/auth';
import { exitImpersonation, startImpersonation } from '../services/impersonation';
import { consumeCode, hasLiveCode, voidCodes } from '../services/otp';
import { field, perAccountFailures, perAddress } from '../services/rate-limits';
import { issueTokens, revokeByToken, revokeFamily, rotateRefreshToken } from '../services/tokens';
import { loadSignedInUser } from '../services/users';
import { accountRecoveryRoutes } from './account-recovery';
import { clearAuthenticated, markAuthenticated } from '../services/auth-marker';

const MINUTE = 60_000;
const userIdParam = z.object({ userId: z.string().uuid() });

/** `/api/Account` (spec sections 4 and 7): sign-in, MFA, tokens, logout, impersonation. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const loginFailures = perAccountFailures(app, 'login', 5, 15 * MINUTE, field('username'));
  const otpFailures = perAccountFailures(app, 'otp', 5, 15 * MINUTE, field('userId'));
  const otpSends = perAccountFailures(app, 'otp-send', 5, 15 * MINUTE, field('userId'));

  app.post('/login', { schema: { body: LoginBody }, preHandler: [perAddress(app, 'login', 60, MINUTE), loginFailures.guard] }, async (request, reply) => {
    const outcome = await login(app, request.body.username, request.body.password);
    switch (outcome.kind) {
      case 'signedIn':
        markAuthenticated(request, reply);
        return reply.ok(outcome.data, 'Login successful');
      case 'mfa':
        return reply.ok(outcome.data, MESSAGES.mfaRequired);
      case 'notMatched':
        // Spec section 4: the client reads this message and goes to the matching page with these details.
        return reply.code(409).send({ status: 409, message: MESSAGES[outcome.data.code], data: outcome.data });
      case 'unverified':
        throw new HttpError(403, 'emailNotVerified');
      default:
        await loginFailures.fail(request);
        throw new HttpError(401, 'loginFailed');
    }
  });

  app.post('/send-otp', { schema: { body: SendOtpBody }, preHandler: [perAddress(app, 'send-otp', 20, MINUTE), otpSends.guard] }, async (request, reply) => {
    const { userId, otpChannel = 'email' } = request.body;
    // Only after the password was checked (the login challenge) may a sign-in code be sent.
    if (!(await hasLiveCode(app.db, userId, 'login_mfa_challenge'))) throw new HttpError(400, 'userIdNotFoundForOtp');
    await otpSends.fail(request);
    if (!(await sendOtp(app.db, userId, 'login_otp', otpChannel))) throw new HttpError(422, 'otpSendFailed');
    return reply.ok({ userId, otpChannel }, MESSAGES.otpSent);
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
    const user = await app.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow();
    const session = await signInAs(app, { userId, role: user.role });
    markAuthenticated(request, reply);
    return reply.ok(session, MESSAGES.otpVerified);
  });

  app.post('/refresh-token', { schema: { body: RefreshTokenBody }, preHandler: perAddress(app, 'refresh', 60, MINUTE) }, async (request, reply) => {
    const result = await rotateRefreshToken(app.db, request.body.refreshToken);
    if (!result.ok) throw new HttpError(401, 'refreshFailed');
    const tokens = await issueTokens(app, result.subject, result.familyId);
    markAuthenticated(request, reply);
    return reply.ok(tokens, 'Token refreshed');
  });

  app.post('/logout', { preHandler: requireSession, schema: { body: z.object({ refreshToken: z.string().max(200).optional() }).optional() } }, async (request, reply) => {
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
    { preHandler: signedIn('manager'), schema: { params: z.object({ managerId: z.string().uuid(), userId: z.string().uuid() }) } },
    async (request, reply) => {
      if (request.params.managerId !== request.session.userId) throw new HttpError(403, 'forbidden');
      return reply.ok(await startImpersonation(app, request.session, request.params.userId, 'manager'), 'Impersonation started');
    },
  );

  app.post('/exit-impersonation', { preHandler: requireSession }, async (request, reply) =>
    reply.ok(await exitImpersonation(app, request.session), 'Impersonation ended'),
  );

  await app.register(accountRecoveryRoutes);
};
