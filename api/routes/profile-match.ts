import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LeaseUpMatchProfileBody,
  MatchProfileBody,
  MatchTenantProfileBody,
  MESSAGES,
  OtpChannel,
  TenantOtpBody,
  ValidateLinkProfileOtpBody,
  VerifyTenantOtpBody,
} from '../../domain';
import { HttpError } from '../errors';
import { otpAnswer, sendOtp } from '../services/auth';
import { consumeCode } from '../services/otp';
import { findRosterMatch, linkTenant, unmatchedTenant } from '../services/profile-match';
import { field, perAccountFailures, perAddress } from '../services/rate-limits';
import { findUserForLogin, maskEmail, maskPhone } from '../services/users';
import { MINUTE } from '../../domain/time';
import { Id } from '../../domain/ids';

const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();
const digits = (s: string | null | undefined) => (s ?? '').replace(/\D/g, '').slice(-10);

/**
 * `/api/ProfileMatch` (spec section 7). Reached after login answered 'Tenant Profile not matched'
 * (pick building and unit, confirm identity, code to the contact the managing agent has on file) or
 * 'Applicant Profile not matched' (confirm the details of an account made for the applicant, code to
 * its contact). Signed out by design, so every call is rate-limited and reveals only masked contacts.
 */
export const profileMatchRoutes: FastifyPluginAsyncZod = async (app) => {
  const address = perAddress(app, 'profile-match', 30, MINUTE);
  const otpFailures = perAccountFailures(app, 'profile-match-otp', 5, 15 * MINUTE, field('userId'));
  const matchFailures = perAccountFailures(app, 'profile-match', 10, 15 * MINUTE, field('email'));
  const linkSends = perAccountFailures(app, 'profile-link-send', 5, 15 * MINUTE, field('a'));

  app.post('/MatchProfile', { schema: { body: MatchProfileBody }, preHandler: [address, matchFailures.guard] }, async (request, reply) => {
    const user = await findUserForLogin(app.db, request.body.email);
    if (!user) {
      await matchFailures.fail(request);
      throw new HttpError(404, 'profileMatchNotFound');
    }
    const tenant = await unmatchedTenant(app.db, user.id);
    return reply.ok({ userId: tenant.id });
  });

  app.get('/get-buildings-list', { preHandler: address }, async (_request, reply) => {
    const rows = await app.db
      .selectFrom('tenant_roster')
      .select(['building_id', 'building_name', 'building_address'])
      .distinct()
      .orderBy('building_name')
      .execute();
    return reply.ok(rows.map((r) => ({ id: r.building_id, name: r.building_name, address: r.building_address })));
  });

  app.get('/get-building-units/:b', { preHandler: address, schema: { params: z.object({ b: Id }) } }, async (request, reply) => {
    const rows = await app.db.selectFrom('tenant_roster').select('unit_number').distinct().where('building_id', '=', request.params.b).orderBy('unit_number').execute();
    return reply.ok(rows.map((r) => r.unit_number));
  });

  app.post('/MatchTenantProfile', { schema: { body: MatchTenantProfileBody }, preHandler: [address, matchFailures.guard] }, async (request, reply) => {
    const user = await findUserForLogin(app.db, request.body.email);
    try {
      if (!user) throw new HttpError(404, 'profileMatchNotFound');
      const tenant = await unmatchedTenant(app.db, user.id);
      const row = await findRosterMatch(app.db, { ...request.body, organizationId: tenant.organization_id });
      return reply.ok({ userId: tenant.id, tenantRecordId: row.id, email: maskEmail(row.email), phone: maskPhone(row.phone) });
    } catch (error) {
      await matchFailures.fail(request);
      throw error;
    }
  });

  app.get('/fetchApplicantEmailAddress/:id', { preHandler: address, schema: { params: z.object({ id: Id }) } }, async (request, reply) => {
    const row = await app.db.selectFrom('tenant_roster').select(['email', 'linked_user_id']).where('id', '=', request.params.id).executeTakeFirst();
    if (!row?.email || row.linked_user_id) throw new HttpError(404, 'tenantEmailFetchFailed');
    return reply.ok({ email: maskEmail(row.email) });
  });

  const sendTenantOtp = async (userId: string, tenantRecordId: string, channel: 'email' | 'sms') => {
    await unmatchedTenant(app.db, userId);
    const row = await app.db.selectFrom('tenant_roster').select(['email', 'phone', 'linked_user_id']).where('id', '=', tenantRecordId).executeTakeFirst();
    if (!row || row.linked_user_id) throw new HttpError(404, 'profileMatchNotFound');
    // The code goes to the contact the managing agent has on file, proving the person is that resident.
    const to = channel === 'sms' ? row.phone : row.email;
    const sent = to ? await sendOtp(app.db, userId, 'tenant_match', channel, tenantRecordId, to) : false;
    if (!sent) throw new HttpError(422, 'otpSendFailed');
    return otpAnswer(channel, sent);
  };

  for (const path of ['/SendOtp', '/ReSendOtp']) {
    app.post(path, { schema: { body: TenantOtpBody }, preHandler: [address, otpFailures.guard] }, async (request, reply) => {
      await otpFailures.fail(request);
      const answer = await sendTenantOtp(request.body.userId, request.body.tenantRecordId, request.body.otpChannel);
      return reply.ok({ userId: request.body.userId, ...answer.data }, answer.message);
    });
  }

  app.post('/VerifyTenantOtp', { schema: { body: VerifyTenantOtpBody }, preHandler: [address, otpFailures.guard] }, async (request, reply) => {
    const check = await consumeCode(app.db, request.body.userId, 'tenant_match', request.body.otp);
    if (!check.ok || check.subject !== request.body.tenantRecordId) {
      await otpFailures.fail(request);
      throw new HttpError(400, 'invalidOtp');
    }
    const householdId = await linkTenant(app.db, request.body.userId, request.body.tenantRecordId);
    return reply.ok({ userId: request.body.userId, householdId }, MESSAGES.otpVerified);
  });

  app.post('/LeaseUpMatchProfile', { schema: { body: LeaseUpMatchProfileBody }, preHandler: [address, matchFailures.guard] }, async (request, reply) => {
    const user = await findUserForLogin(app.db, request.body.email);
    const matches =
      user?.applicant_match_required &&
      norm(user.first_name) === norm(request.body.firstName) &&
      norm(user.last_name) === norm(request.body.lastName) &&
      digits(user.phone_number) === digits(request.body.phoneNumber);
    if (!user || !matches) {
      await matchFailures.fail(request);
      throw new HttpError(404, 'profileMatchNotFound');
    }
    return reply.ok({ userId: user.id, email: maskEmail(user.email), phone: maskPhone(user.phone_number) });
  });

  app.post(
    '/sendotpforprofilelink/:a/:b',
    { schema: { params: z.object({ a: Id, b: OtpChannel }) }, preHandler: [address, linkSends.guard] },
    async (request, reply) => {
      const user = await app.db.selectFrom('users').select('applicant_match_required').where('id', '=', request.params.a).executeTakeFirst();
      if (!user?.applicant_match_required) throw new HttpError(404, 'profileMatchNotFound');
      await linkSends.fail(request);
      const sent = await sendOtp(app.db, request.params.a, 'profile_link', request.params.b);
      if (!sent) throw new HttpError(422, 'otpSendFailed');
      const answer = otpAnswer(request.params.b, sent);
      return reply.ok({ userId: request.params.a, ...answer.data }, answer.message);
    },
  );

  app.post('/validatelinkprofileotp', { schema: { body: ValidateLinkProfileOtpBody }, preHandler: [address, otpFailures.guard] }, async (request, reply) => {
    const check = await consumeCode(app.db, request.body.userId, 'profile_link', request.body.otp);
    if (!check.ok) {
      await otpFailures.fail(request);
      throw new HttpError(400, 'invalidOtp');
    }
    await app.db.updateTable('users').set({ applicant_match_required: false, email_verified: true }).where('id', '=', request.body.userId).execute();
    return reply.ok({ userId: request.body.userId }, MESSAGES.otpVerified);
  });
};
