import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FontSizeValue, ProfileSettingsBody, SignatureBody, UpdateProfileBody, type ProfileSettings } from '../../domain';
import { isOptedOut } from '../../infra/notifications/sms-opt-outs';
import { signedIn } from '../guards';
import { HttpError } from '../errors';
import { refuseWhileImpersonating } from '../plugins/auth';
import { consumeCode } from '../services/otp';
import { decodeSignaturePng, getSignatureInfo, saveSignature } from '../services/signatures';
import { loadSignedInUser } from '../services/users';

/**
 * `/api/UserProfile` (spec section 7): the signed-in user's own profile, settings (language, font
 * size, notifications; path chosen here as `/settings`, the spec does not show it) and signature.
 * Every route acts on the session's own user, so no other user's data is reachable.
 */
export const userProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  const anyone = signedIn('any');

  const readSettings = async (userId: string): Promise<ProfileSettings> => {
    const user = await app.db.selectFrom('users').select(['preferred_language', 'font_size', 'notify_email', 'notify_sms', 'phone_number']).where('id', '=', userId).executeTakeFirstOrThrow();
    const signature = await getSignatureInfo(app.db, userId);
    const lang = user.preferred_language;
    return {
      preferredReadingLanguage: lang === 'es' || lang === 'zh' || lang === 'bn' ? lang : 'en',
      fontSize: FontSizeValue.parse(user.font_size),
      notifyByEmail: user.notify_email,
      notifyBySms: user.notify_sms,
      smsOptedOut: await isOptedOut(app.db, user.phone_number),
      hasSignature: Boolean(signature),
      signatureKind: signature?.kind ?? null,
    };
  };

  app.get('/Profile', { preHandler: anyone }, async (request, reply) => reply.ok(await loadSignedInUser(app.db, request.session.userId)));

  const updateProfile = { preHandler: [anyone, refuseWhileImpersonating], schema: { body: UpdateProfileBody } };
  const doUpdate = async (userId: string, body: { firstName: string; lastName: string; phoneNumber: string }) => {
    const current = await app.db.selectFrom('users').select('phone_number').where('id', '=', userId).executeTakeFirstOrThrow();
    await app.db
      .updateTable('users')
      .set({
        first_name: body.firstName,
        last_name: body.lastName,
        phone_number: body.phoneNumber,
        // A new phone number must be confirmed again before codes are sent to it.
        ...(current.phone_number !== body.phoneNumber ? { phone_verified: false } : {}),
      })
      .where('id', '=', userId)
      .execute();
    return loadSignedInUser(app.db, userId);
  };
  app.put('/Profile', updateProfile, async (request, reply) => reply.ok(await doUpdate(request.session.userId, request.body), 'Profile updated'));
  app.post('/Profile', updateProfile, async (request, reply) => reply.ok(await doUpdate(request.session.userId, request.body), 'Profile updated'));

  app.get('/settings', { preHandler: anyone }, async (request, reply) => reply.ok(await readSettings(request.session.userId)));
  const saveSettings = async (userId: string, body: ReturnType<typeof ProfileSettingsBody.parse>) => {
    const set = {
      ...(body.preferredReadingLanguage ? { preferred_language: body.preferredReadingLanguage } : {}),
      ...(body.fontSize ? { font_size: body.fontSize } : {}),
      ...(body.notifyByEmail !== undefined ? { notify_email: body.notifyByEmail } : {}),
      ...(body.notifyBySms !== undefined ? { notify_sms: body.notifyBySms } : {}),
    };
    if (Object.keys(set).length > 0) await app.db.updateTable('users').set(set).where('id', '=', userId).execute();
    return readSettings(userId);
  };
  app.post('/settings', { preHandler: anyone, schema: { body: ProfileSettingsBody } }, async (request, reply) => reply.ok(await saveSettings(request.session.userId, request.body), 'Settings saved'));
  app.put('/settings', { preHandler: anyone, schema: { body: ProfileSettingsBody } }, async (request, reply) => reply.ok(await saveSettings(request.session.userId, request.body), 'Settings saved'));

  // Spec section 2: a signature is changed only after the OTP validation dialog (Signature/validateotp).
  app.put('/Profile/Signature', { preHandler: [anyone, refuseWhileImpersonating], schema: { body: SignatureBody } }, async (request, reply) => {
    const png = decodeSignaturePng(request.body.signatureBase64);
    if (!png) throw new HttpError(400, 'invalidSignatureImage');
    const grant = await consumeCode(app.db, request.session.userId, 'signature_grant', request.session.userId);
    if (!grant.ok) throw new HttpError(403, 'signatureOtpRequired');
    await saveSignature(app.db, app.blobs, request.session.userId, png, request.body.autoGenerateRequest ? 'typed' : 'drawn');
    return reply.ok(await readSettings(request.session.userId), 'Signature saved');
  });
};
