import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddressInput, EligibilityAssessmentInput, LANGUAGES, IncomeTaxRefundInput, MemberInput, QuestionAnswer, money, wholeNumber } from '../../domain';
import { signedIn } from '../guards';
import { ensureOwnHousehold } from '../services/household-access';
import { createMember, deleteMember, updateMember } from '../services/household-members';
import { answerIncomeQuestion, completeProfile, finalSubmission, loadProfile, saveAddress, saveEligibility, upsertProfile, getProfileRow } from '../services/household-profile';
import { listDocuments } from '../services/document-list';
import { DocumentListQuery } from './documents';
import { HouseholdQuery, IdParams, editHousehold, readHousehold } from './household-helpers';
import { notFound } from '../errors';
import { exportMyData } from '../services/my-data';
import { refuseWhileImpersonating } from '../plugins/auth';

/**
 * `/api/Household` (spec section 7), except submit-applicant-profile/{id} which the lease-up routes
 * serve under the same prefix. Every edit is the caller's own household and refused while locked.
 */
export const householdRoutes: FastifyPluginAsyncZod = async (app) => {
  const key = app.keys;
  const resident = signedIn('resident');
  const reader = signedIn('resident_or_manager');

  app.post('/CreateApplicantOrMember', { preHandler: resident, schema: { body: MemberInput } }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => createMember(app.db, key, h, request.body)), 'Member saved', 201),
  );

  // The body is checked against MemberInput in the service, once what is on file is known. Spec
  // section 7's client posts; PUT stays for the web app.
  app.route({
    method: ['POST', 'PUT'],
    url: '/UpdateApplicantOrMember',
    preHandler: resident,
    schema: { body: z.object({ id: z.string().uuid('Invalid id') }).passthrough() },
    handler: async (request, reply) => reply.ok(await editHousehold(app, request, (h) => updateMember(app.db, key, h, request.body.id, request.body))),
  });

  // "Download my data": the whole household record as a zip, summary in the language asked (else the account's).
  // Refused before a byte is sent: documents past the cap (409), another download of the household running, the hourly limit (429).
  const exportConfig = { openapi: { produces: ['application/zip'], refusals: { 409: ['myDataTooLarge'], 429: ['myDataExportInProgress', 'myDataExportLimit'] } } } as const;
  const limits = { maxBytes: app.config.MY_DATA_EXPORT_MAX_BYTES, perHour: app.config.MY_DATA_EXPORTS_PER_HOUR };
  app.get('/my-data/export', { preHandler: [resident, refuseWhileImpersonating], config: exportConfig, schema: { querystring: z.object({ language: z.enum(LANGUAGES).optional() }) } }, async (request, reply) => {
    const archive = await exportMyData({ db: app.db, blobs: app.blobs, limits }, request.session, request.query.language);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${archive.fileName}"`)
      .header('cache-control', 'no-store')
      .send(archive.body);
  });

  app.get('/profile', { preHandler: reader, schema: { querystring: HouseholdQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => loadProfile(app.db, h))),
  );
  app.post('/profile', { preHandler: resident }, async (request, reply) => {
    const household = await ensureOwnHousehold(app.db, request.session);
    return reply.ok(await loadProfile(app.db, household.id));
  });

  app.delete('/member/:id', { preHandler: resident, schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => deleteMember(app.db, h, request.params.id)).then(() => ({ id: request.params.id })), 'Member deleted'),
  );

  app.post('/CompleteProfile', { preHandler: resident }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => completeProfile(app.db, h)), 'Profile complete'),
  );
  app.post('/FinalProfileSubmission', { preHandler: resident }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => finalSubmission(app.db, h)), 'Profile submitted'),
  );

  app.post('/addOrUpdateEligibilityAssessment', { preHandler: resident, schema: { body: EligibilityAssessmentInput } }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => saveEligibility(app.db, h, request.body))),
  );

  // {id} is the household: the caller's own (spec section 4: NO deletes every income entry once confirmed).
  app.post('/updateIncomeQuestionId/:id', { preHandler: resident, schema: { params: IdParams, body: QuestionAnswer } }, async (request, reply) =>
    reply.ok(
      await editHousehold(app, request, async (h) => {
        if (h !== request.params.id) throw notFound();
        return answerIncomeQuestion(app.db, h, request.body);
      }),
    ),
  );

  // {id} is the household.
  app.get('/get-user-summary/:id', { preHandler: reader, schema: { params: IdParams } }, async (request, reply) =>
    reply.ok(
      await readHousehold(app, request, request.params.id, async (h) => {
        const p = await loadProfile(app.db, h);
        const head = p.members.find((m) => m.headOfHousehold) ?? p.members[0] ?? null;
        return { householdId: h, householdSize: p.members.length, headOfHousehold: head?.fullName ?? null, profileCompletion: p.completion.percent, address: p.address, submittedAt: p.submittedAt };
      }),
    ),
  );

  app.post(
    '/updateLeaseUpHouseholdSizeAndIncome/:id',
    { preHandler: resident, schema: { params: IdParams, body: z.object({ householdSize: wholeNumber, householdIncome: money }) } },
    async (request, reply) =>
      reply.ok(
        await editHousehold(app, request, async (h) => {
          if (h !== request.params.id) throw notFound();
          const row = await getProfileRow(app.db, h);
          const eligibility = { ...((row?.eligibility as object | null) ?? {}), householdSize: request.body.householdSize, totalIncome: request.body.householdIncome };
          await upsertProfile(app.db, h, { eligibility: JSON.stringify(eligibility) });
          return eligibility;
        }),
      ),
  );

  app.post('/addOrUpdateApplicantAddress', { preHandler: resident, schema: { body: AddressInput } }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => saveAddress(app.db, h, request.body))),
  );

  app.post('/income-tax-refund', { preHandler: resident, schema: { body: IncomeTaxRefundInput } }, async (request, reply) =>
    reply.ok(
      await editHousehold(app, request, async (h) => {
        const row = await getProfileRow(app.db, h);
        const special = { ...((row?.special_income as object | null) ?? {}), incomeTaxRefund: request.body };
        await upsertProfile(app.db, h, { special_income: JSON.stringify(special) });
        return request.body;
      }),
    ),
  );

  app.get('/getAllDocuments', { preHandler: reader, schema: { querystring: DocumentListQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => listDocuments(app.db, h, request.query))),
  );
};
