import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EncryptionCodec } from '../../infra/temporal/codec';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { CODEC_AUDIT_WORKFLOW_ID, audit, codecReason } from '../services/operator';

const JsonPayloads = z.object({
  payloads: z
    .array(z.object({ metadata: z.record(z.string(), z.string()).default({}), data: z.string().default('') }))
    .max(1000),
});
type JsonPayloads = z.infer<typeof JsonPayloads>;

const toBytes = (p: JsonPayloads['payloads'][number]) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data, 'base64'),
});
const toJson = (p: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

/**
 * Codec server for operators: the Temporal Web UI (or `temporal --codec-endpoint`) posts encrypted
 * payloads here and shows them decoded. Only an Admin's bearer token is accepted, of a sign-in for
 * which a reason was given (POST /api/Operator/codec-reason), and every decode is audited with it;
 * the Web UI's origin (TEMPORAL_UI_ORIGIN) is the only cross-origin caller allowed.
 */
export const codecRoutes: FastifyPluginAsyncZod = async (app) => {
  const codec = EncryptionCodec.fromBase64(app.config.DATA_ENCRYPTION_KEY, app.config.DATA_ENCRYPTION_KEYS_PREVIOUS);
  const origin = app.config.TEMPORAL_UI_ORIGIN;

  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.origin === origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-credentials', 'true');
      reply.header('access-control-allow-headers', 'authorization, content-type, x-namespace');
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
    }
  });
  app.options('/decode', async (_request, reply) => reply.code(204).send());
  app.options('/encode', async (_request, reply) => reply.code(204).send());

  app.post('/decode', { preHandler: signedIn('admin'), schema: { body: JsonPayloads } }, async (request) => {
    // The operator's reason gate, as for a reveal: given once for the sign-in (POST /api/Operator/codec-reason).
    const reason = await codecReason(app.db, request.session.userId, request.session.familyId);
    if (!reason) throw new HttpError(403, 'operatorReasonRequired');
    let decoded;
    try {
      decoded = await codec.decode(request.body.payloads.map(toBytes));
    } catch {
      // A payload that is not one of ours (tampered, truncated, another key) is bad input, not a fault.
      throw new HttpError(400, 'validation', 'A payload could not be decoded');
    }
    await audit(app.db, { actorUserId: request.session.userId, workflowId: CODEC_AUDIT_WORKFLOW_ID, action: 'reveal', reason, detail: { what: 'payloads through the codec', payloads: decoded.length } });
    return { payloads: decoded.map(toJson) };
  });
  app.post('/encode', { preHandler: signedIn('admin'), schema: { body: JsonPayloads } }, async (request) => ({
    payloads: (await codec.encode(request.body.payloads.map(toBytes))).map(toJson),
  }));
};
