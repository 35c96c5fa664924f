import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdditionalPreferencesInput, RentalAssistanceInput } from '../../domain';
import { notFound } from '../errors';
import { signedIn } from '../guards';
import { getProfileRow, savePreferences } from '../services/household-profile';
import { HouseholdQuery, editHousehold, readHousehold } from './household-helpers';

/** `/api/HousingChoices` (spec sections 3 and 7): interests, preferences and rental assistance. */
export const housingChoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const resident = signedIn('resident');

  app.get('/Applicant', { preHandler: signedIn('resident_or_manager'), schema: { querystring: HouseholdQuery } }, async (request, reply) =>
    reply.ok(
      await readHousehold(app, request, request.query.householdId, async (h) => {
        const [row, assistance] = await Promise.all([
          getProfileRow(app.db, h),
          app.db.selectFrom('rental_assistance').select(['id', 'details']).where('household_id', '=', h).orderBy('updated_at').execute(),
        ]);
        return { preferences: row?.preferences ?? null, rentalAssistance: assistance.map((a) => ({ ...(a.details as object), id: a.id })) };
      }),
    ),
  );

  // POST creates or updates (spec section 7); PUT updates.
  const saveAssistance = (request: { body: RentalAssistanceInput } & Parameters<typeof editHousehold>[1]) =>
    editHousehold(app, request, async (h) => {
      const { id, ...details } = request.body;
      if (details.proofDocumentId) {
        const doc = await app.db.selectFrom('household_documents').select('id').where('id', '=', details.proofDocumentId).where('household_id', '=', h).executeTakeFirst();
        if (!doc) throw notFound();
      }
      const row = id
        ? await app.db.updateTable('rental_assistance').set({ details: JSON.stringify(details), updated_at: new Date() }).where('id', '=', id).where('household_id', '=', h).returning('id').executeTakeFirst()
        : await app.db.insertInto('rental_assistance').values({ household_id: h, details: JSON.stringify(details), updated_at: new Date() }).returning('id').executeTakeFirstOrThrow();
      if (!row) throw notFound();
      return { ...details, id: row.id };
    });
  app.post('/rental-assistance', { preHandler: resident, schema: { body: RentalAssistanceInput } }, async (request, reply) => reply.ok(await saveAssistance(request)));
  app.put('/rental-assistance', { preHandler: resident, schema: { body: RentalAssistanceInput } }, async (request, reply) => reply.ok(await saveAssistance(request)));

  const savePrefs = (request: { body: AdditionalPreferencesInput } & Parameters<typeof editHousehold>[1]) =>
    editHousehold(app, request, (h) => savePreferences(app.db, h, request.body));
  app.post('/AdditionalPreferences', { preHandler: resident, schema: { body: AdditionalPreferencesInput } }, async (request, reply) => reply.ok(await savePrefs(request)));
  app.put('/AdditionalPreferences', { preHandler: resident, schema: { body: AdditionalPreferencesInput } }, async (request, reply) => reply.ok(await savePrefs(request)));
};
