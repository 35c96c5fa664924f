import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, RecertActionBody, RecertManagerActionName, RecertTenantActionName, StartInterimBody } from '../../domain';
import { forbidden, notFound } from '../errors';
import { signedIn } from '../guards';
import { ensureAnnual, startInterim } from '../services/recertification-cycle';
import { managerTenantHouseholds } from '../services/recertification-households';
import * as recert from '../services/recertification';
import { householdOf, organizationOf } from '../services/users';
import { idOf } from '../../domain/ids';

const CaseParams = z.object({ caseId: idOf('Invalid case id') });
const HouseholdParams = z.object({ householdId: idOf('Invalid household id') });

/**
 * `/api/TenantRecertificationStatus` (spec section 7: GET status). The action routes are not in the
 * spec; each is the workflow Update of the same name (shared/design/workflows.md "Recertification").
 */
export const recertificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => ({ db: app.db, temporal: app.temporal, taskQueue: app.config.TEMPORAL_TASK_QUEUE, blobs: app.blobs });

  // Having no case is an ordinary answer (an applicant, a tenant outside the window), not an error:
  // the page shows the spec's message without the browser logging a failed request.
  app.get('/status', { preHandler: signedIn('resident') }, async (request, reply) => {
    const found = await recert.status(deps(), request.session);
    return found ? reply.ok(found) : reply.ok(null, MESSAGES.noRecertificationData);
  });

  app.get('/case/:caseId', { preHandler: signedIn('resident_or_manager'), schema: { params: CaseParams } }, async (request, reply) =>
    reply.ok(await recert.detail(deps(), request.session, request.params.caseId)),
  );

  /** The TIC as signed so far (else as generated), as spec section 3 "Document content" (fileContent base64 and contentType). */
  app.get('/case/:caseId/tic', { preHandler: signedIn('resident_or_manager'), schema: { params: CaseParams } }, async (request, reply) => {
    const detail = await recert.detail(deps(), request.session, request.params.caseId);
    const key = detail.view.signedTic?.key ?? detail.view.ticKey;
    const blob = key ? await app.blobs.get(key) : null;
    if (!blob) throw notFound('ticNotGeneratedYet');
    return reply.ok({ fileContent: blob.body.toString('base64'), contentType: blob.contentType });
  });

  app.post('/interim', { preHandler: signedIn('resident'), schema: { body: StartInterimBody } }, async (request, reply) => {
    const household = await householdOf(app.db, request.session.userId);
    if (!household) throw notFound('noTenancy');
    return reply.ok(await startInterim(deps(), household.id, request.body.reason), 'Interim recertification started', 201);
  });

  app.post(
    '/:caseId/:action',
    { preHandler: signedIn('resident'), schema: { params: CaseParams.extend({ action: RecertTenantActionName }), body: RecertActionBody.nullish() } },
    async (request, reply) => reply.ok(await recert.act(deps(), request.session, request.params.caseId, request.params.action, request.body ?? {}, request.ip)),
  );

  // Manager side (not in the spec's list): open cycles for a household of the manager's organisation, and act.
  const managerOf = async (managerId: string, householdId: string) => {
    const [org, tenancy] = await Promise.all([
      organizationOf(app.db, managerId),
      app.db.selectFrom('tenancies').select('organization_id').where('household_id', '=', householdId).executeTakeFirst(),
    ]);
    if (!tenancy) throw notFound('noTenancy');
    if (!org || org !== tenancy.organization_id) throw forbidden();
  };

  app.get('/manager/households', { preHandler: signedIn('manager') }, async (request, reply) => reply.ok(await managerTenantHouseholds(app.db, request.session.userId)));

  app.post('/manager/annual/:householdId', { preHandler: signedIn('manager'), schema: { params: HouseholdParams } }, async (request, reply) => {
    await managerOf(request.session.userId, request.params.householdId);
    const opened = await ensureAnnual(deps(), request.params.householdId);
    if (!opened) throw notFound('noRecertificationData');
    return reply.ok(opened);
  });

  app.post(
    '/manager/interim/:householdId',
    { preHandler: signedIn('manager'), schema: { params: HouseholdParams, body: StartInterimBody } },
    async (request, reply) => {
      await managerOf(request.session.userId, request.params.householdId);
      return reply.ok(await startInterim(deps(), request.params.householdId, request.body.reason), 'Interim recertification started', 201);
    },
  );

  app.post(
    '/manager/:caseId/:action',
    { preHandler: signedIn('manager'), schema: { params: CaseParams.extend({ action: RecertManagerActionName }), body: RecertActionBody.nullish() } },
    async (request, reply) => reply.ok(await recert.act(deps(), request.session, request.params.caseId, request.params.action, request.body ?? {})),
  );
};
