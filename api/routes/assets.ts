import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ASSET_KINDS, FORM_MESSAGES, AssetFlagInput, AssetInput, AssetsMultipleInput, ExtractionQuery, SaveExtractedInput, SaveExtractedMultipleInput, type AssetKind } from '../../domain';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { extractedEmployer, getExtraction, getExtractionJson, saveExtracted } from '../services/extraction';
import { answerAssetFlag, deleteAsset, listAssets, saveAssets } from '../services/household-assets';
import { HouseholdQuery, IdParams, editHousehold, readHousehold } from './household-helpers';

/**
 * `/api/HouseholdAssets` (spec section 7): create and delete per kind, bulk saves, the per-kind
 * questions (NO deletes that kind's entries once confirmed), and the calls for figures read from
 * statements and pay stubs (read by /api/v1/account-details, saved here once confirmed).
 */
export const assetRoutes: FastifyPluginAsyncZod = async (app) => {
  const resident = signedIn('resident');
  const save = (inputs: AssetInput[], request: Parameters<typeof editHousehold>[1]) => editHousehold(app, request, (h) => saveAssets(app.db, h, inputs));
  const onlyKind = (inputs: AssetInput[], kind: AssetKind) => {
    if (inputs.some((a) => a.kind !== kind)) throw new HttpError(400, 'validation', `Every entry must be ${kind}`);
  };

  for (const kind of ASSET_KINDS) {
    app.post(`/${kind}`, { preHandler: resident, schema: { body: AssetInput } }, async (request, reply) => {
      onlyKind([request.body], kind);
      return reply.ok((await save([request.body], request))[0], 'Asset saved', 201);
    });
    app.delete(`/${kind}/:id`, { preHandler: resident, schema: { params: IdParams } }, async (request, reply) => {
      await editHousehold(app, request, (h) => deleteAsset(app.db, h, kind, request.params.id));
      return reply.ok({ id: request.params.id }, 'Asset deleted');
    });
  }

  app.post('/SaveAssetsMultiple', { preHandler: resident, schema: { body: AssetsMultipleInput } }, async (request, reply) =>
    reply.ok(await save(request.body, request), 'Assets saved'),
  );
  app.post('/SaveBankAccounts', { preHandler: resident, schema: { body: AssetsMultipleInput } }, async (request, reply) => {
    onlyKind(request.body, 'BankAccounts');
    return reply.ok(await save(request.body, request), 'Bank accounts saved');
  });
  app.post('/SaveRetirementAccounts', { preHandler: resident, schema: { body: AssetsMultipleInput } }, async (request, reply) => {
    onlyKind(request.body, 'RetirementAccounts');
    return reply.ok(await save(request.body, request), 'Retirement accounts saved');
  });

  // UpdateAssetFlag answers any kind (or, without kind, the household-wide question); the named flags fix the kind.
  const flag = (fixed?: AssetKind) => async (request: { body: AssetFlagInput } & Parameters<typeof editHousehold>[1], reply: { ok: (d: unknown) => unknown }) =>
    reply.ok(await editHousehold(app, request, (h) => answerAssetFlag(app.db, h, { ...request.body, kind: fixed ?? request.body.kind })));
  const FixedFlag = z.object({ hasAny: z.boolean({ error: FORM_MESSAGES.answerRequired }), confirmed: z.boolean().default(false) });
  // Spec section 7's client posts the flag updates; PUT stays for the web app.
  const both = ['POST', 'PUT'] as const;
  app.route({ method: [...both], url: '/UpdateAssetFlag', preHandler: resident, schema: { body: AssetFlagInput }, handler: flag() });
  app.route({ method: [...both], url: '/UpdateTrustAssetFlag', preHandler: resident, schema: { body: FixedFlag }, handler: flag('TrustAssets') });
  app.route({ method: [...both], url: '/UpdateLifeInsuranceAssetFlag', preHandler: resident, schema: { body: FixedFlag }, handler: flag('LifeInsuranceAssets') });
  app.route({ method: [...both], url: '/UpdateEBTCardAssetFlag', preHandler: resident, schema: { body: FixedFlag }, handler: flag('EBTCards') });

  app.get('/', { preHandler: signedIn('resident_or_manager'), schema: { querystring: HouseholdQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => listAssets(app.db, h))),
  );

  // Figures read from an uploaded bank statement or pay stub: proposed, saved only once confirmed.
  const reader = signedIn('resident_or_manager');
  app.get('/GetAiExtractedData', { preHandler: reader, schema: { querystring: ExtractionQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => getExtraction(app.db, h, request.query.documentId))),
  );
  app.get('/GetJsonData', { preHandler: reader, schema: { querystring: ExtractionQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => getExtractionJson(app.db, h, request.query.documentId))),
  );
  app.get('/GetExtractedEmployer', { preHandler: reader, schema: { querystring: ExtractionQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => extractedEmployer(app.db, h, request.query.documentId))),
  );
  app.post('/SaveAiExtractedData', { preHandler: resident, schema: { body: SaveExtractedInput } }, async (request, reply) =>
    reply.ok((await editHousehold(app, request, (h) => saveExtracted(app.db, h, [request.body])))[0], 'Saved'),
  );
  app.post('/SaveAiExtractedDataMultiple', { preHandler: resident, schema: { body: SaveExtractedMultipleInput } }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => saveExtracted(app.db, h, request.body)), 'Saved'),
  );
};
