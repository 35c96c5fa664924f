import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MESSAGES, SignatureOtpBody } from '../../domain';
import { signedIn } from '../guards';
import { HttpError } from '../errors';
import { refuseWhileImpersonating } from '../plugins/auth';
import { otpAnswer, sendOtp } from '../services/auth';
import { consumeCode, issueGrant } from '../services/otp';
import { perAccountFailures } from '../services/rate-limits';

/** A validated code lets the user change the signature within 10 minutes, once. */
const GRANT_SECONDS = 600;

/**
 * `/api/Signature` (spec section 7, names as the spec spells them): the OTP sent before a signature
 * change and its validation. Refused while acting for another user.
 */
export const signatureRoutes: FastifyPluginAsyncZod = async (app) => {
  const guard = [signedIn('any'), refuseWhileImpersonating];
  const byUser = (request: { session?: { userId: string } }) => request.session?.userId ?? null;
  const sends = perAccountFailures(app, 'signature-otp-send', 5, 15 * 60_000, byUser as never);
  const failures = perAccountFailures(app, 'signature-otp', 5, 15 * 60_000, byUser as never);

  app.post('/generateotpforchangesignrature', { preHandler: [...guard, sends.guard], schema: { body: SignatureOtpBody } }, async (request, reply) => {
    await sends.fail(request);
    const user = await app.db.selectFrom('users').select(['phone_number']).where('id', '=', request.session.userId).executeTakeFirstOrThrow();
    const channel = request.body.otpChannel;
    // The code goes only to the contact on file; a phone number in the body must be that one.
    if (channel === 'sms' && !user.phone_number) throw new HttpError(422, 'noPhoneNumber');
    if (channel === 'sms' && request.body.phoneNumber && request.body.phoneNumber.replace(/\D/g, '') !== user.phone_number?.replace(/\D/g, '')) {
      throw new HttpError(422, 'otpSendFailed');
    }
    const sent = await sendOtp(app.db, request.session.userId, 'signature_otp', channel);
    if (!sent) throw new HttpError(422, 'otpSendFailed');
    const answer = otpAnswer(channel, sent);
    return reply.ok(answer.data, answer.message);
  });

  app.get('/validateotp/otp/:x', { preHandler: [...guard, failures.guard], schema: { params: z.object({ x: z.string().regex(/^\d{6}$/) }) } }, async (request, reply) => {
    const check = await consumeCode(app.db, request.session.userId, 'signature_otp', request.params.x);
    if (!check.ok) {
      await failures.fail(request);
      throw new HttpError(400, 'invalidOtp');
    }
    // The grant is keyed on the user id: PUT Profile/Signature consumes it.
    await issueGrant(app.db, request.session.userId, 'signature_grant', GRANT_SECONDS);
    return reply.ok({ valid: true }, MESSAGES.otpVerified);
  });
};
