import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  OperatorActionBody,
  OperatorAuditQuery,
  OperatorCaseParams,
  OperatorCodecReasonBody,
  OperatorExportBody,
  OperatorResetBody,
  OperatorRevealBody,
  OperatorSearchQuery,
  OperatorStuckQuery,
  operatorWorkflowId,
} from '../../domain';
import { undeliveredNotices } from '../../infra/db/repositories/notification-outbox';
import { EncryptionCodec } from '../../infra/temporal/codec';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { CODEC_AUDIT_WORKFLOW_ID, audit, auditLog, resetCase, retryCase, searchCases, stuckCases, terminateCase } from '../services/operator';
import { caseHistory, encodedHistory } from '../services/operator-history';
import { retentionScheduleRuns } from '../../infra/temporal/retention-schedule';

/**
 * `/api/Operator` (paths chosen here), Admins only: find cases across kinds, list
 * stuck ones, read and export a case's history (personal fields redacted unless a reason is
 * given), retry, terminate or reset a case with a reason. Each reveal, export and action is audited.
 */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = signedIn('admin');
  // Payloads are decoded here, on the API, with the same codec as the client and the worker.
  const codec = EncryptionCodec.fromBase64(app.config.DATA_ENCRYPTION_KEY, app.config.DATA_ENCRYPTION_KEYS_PREVIOUS);
  const deps = () => ({ db: app.db, temporal: app.temporal, codec, taskQueue: app.config.TEMPORAL_TASK_QUEUE, dataKey: app.config.DATA_ENCRYPTION_KEY });

  app.get('/cases', { preHandler: admin, schema: { querystring: OperatorSearchQuery } }, async (request, reply) => reply.ok(await searchCases(deps(), request.query)));

  app.get('/stuck', { preHandler: admin, schema: { querystring: OperatorStuckQuery } }, async (request, reply) =>
    reply.ok(await stuckCases(deps(), request.query, new Date())),
  );

  // Notices that reached nobody, across every case: the kind, the case, each channel and why (no addresses).
  app.get('/undelivered-notices', { preHandler: admin }, async (_request, reply) => reply.ok({ items: await undeliveredNotices(app.db, { limit: 100 }) }));
  // The retention sweep's schedule: when it last ran and when it runs next.
  app.get('/retention', { preHandler: admin }, async (_request, reply) => reply.ok(await retentionScheduleRuns(app.temporal)));

  app.get('/audit', { preHandler: admin, schema: { querystring: OperatorAuditQuery } }, async (request, reply) => reply.ok(await auditLog(app.db, request.query)));

  app.get('/cases/:kind/:id/history', { preHandler: admin, schema: { params: OperatorCaseParams } }, async (request, reply) =>
    reply.ok(await caseHistory(deps(), operatorWorkflowId(request.params), false)),
  );

  app.post('/cases/:kind/:id/history/reveal', { preHandler: admin, schema: { params: OperatorCaseParams, body: OperatorRevealBody } }, async (request, reply) => {
    const workflowId = operatorWorkflowId(request.params);
    const history = await caseHistory(deps(), workflowId, true);
    await audit(app.db, { actorUserId: request.session.userId, workflowId, action: 'reveal', reason: request.body.reason, detail: { what: 'history, personal fields', events: history.events.length } });
    return reply.ok(history, 'Personal fields shown; the reason is recorded');
  });

  app.post('/cases/:kind/:id/export', { preHandler: admin, schema: { params: OperatorCaseParams, body: OperatorExportBody } }, async (request, reply) => {
    const workflowId = operatorWorkflowId(request.params);
    const { format, reason } = request.body;
    // An encoded export needs a reason (the schema): its payloads are readable through the codec.
    const reveal = format === 'decoded' && Boolean(reason);
    const body = format === 'encoded' ? await encodedHistory(deps(), workflowId) : JSON.stringify(await caseHistory(deps(), workflowId, reveal), null, 2);
    await audit(app.db, { actorUserId: request.session.userId, workflowId, action: 'export', reason: reason ?? '', detail: { format, redacted: format === 'decoded' && !reveal ? 'yes' : 'no' } });
    const name = `${workflowId.replace('/', '-')}-${format}.json`;
    return reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(body);
  });

  // The reason for a codec session, given once: the Temporal Web UI's (or the CLI's) decode calls
  // made with this sign-in are then allowed, each audited with it (api/routes/codec.ts).
  app.post('/codec-reason', { preHandler: admin, schema: { body: OperatorCodecReasonBody } }, async (request, reply) => {
    if (!request.session.familyId) throw new HttpError(403, 'forbidden');
    await audit(app.db, { actorUserId: request.session.userId, workflowId: CODEC_AUDIT_WORKFLOW_ID, action: 'reveal', reason: request.body.reason, detail: { what: 'codec session', family: request.session.familyId } });
    return reply.ok({ recorded: true }, 'The reason is recorded; the codec decodes for this sign-in');
  });

  app.post('/cases/:kind/:id/retry', { preHandler: admin, schema: { params: OperatorCaseParams, body: OperatorActionBody } }, async (request, reply) => {
    const workflowId = operatorWorkflowId(request.params);
    const result = await retryCase(deps(), workflowId);
    await audit(app.db, { actorUserId: request.session.userId, workflowId, action: 'retry', reason: request.body.reason, detail: { resetToEvent: result.eventId, newRunId: result.runId } });
    return reply.ok(result, 'The case is retried from its last workflow task');
  });

  app.post('/cases/:kind/:id/terminate', { preHandler: admin, schema: { params: OperatorCaseParams, body: OperatorActionBody } }, async (request, reply) => {
    const workflowId = operatorWorkflowId(request.params);
    await terminateCase(deps(), workflowId);
    await audit(app.db, { actorUserId: request.session.userId, workflowId, action: 'terminate', reason: request.body.reason });
    return reply.ok({ workflowId }, 'The case is terminated');
  });

  app.post('/cases/:kind/:id/reset', { preHandler: admin, schema: { params: OperatorCaseParams, body: OperatorResetBody } }, async (request, reply) => {
    const workflowId = operatorWorkflowId(request.params);
    const result = await resetCase(deps(), workflowId, request.body.eventId);
    await audit(app.db, { actorUserId: request.session.userId, workflowId, action: 'reset', reason: request.body.reason, detail: { resetToEvent: result.eventId, newRunId: result.runId } });
    return reply.ok(result, 'The case is reset');
  });
};
