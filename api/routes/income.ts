import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IncomeInput } from '../../domain';
import { HttpError } from '../errors';
import { signedIn } from '../guards';
import { deleteIncome, incomeTypes, listIncome, saveIncome } from '../services/household-income';
import { HouseholdQuery, IdParams, editHousehold, readHousehold } from './household-helpers';

/** `/api/HouseholdIncome` (spec section 7): every income type through one validated body (domain/income.ts). */
export const incomeRoutes: FastifyPluginAsyncZod = async (app) => {
  const resident = signedIn('resident');
  const save = (only?: 'gig_economy' | 'zero_income') =>
    async (request: { body: IncomeInput } & Parameters<typeof editHousehold>[1], reply: { ok: (d: unknown, m?: string) => unknown }) => {
      if (only && request.body.incomeType !== only) throw new HttpError(400, 'validation', `incomeType must be ${only}`);
      return reply.ok(await editHousehold(app, request, (h) => saveIncome(app.db, h, request.body)), 'Income saved');
    };

  app.post('/create', { preHandler: resident, schema: { body: IncomeInput } }, save());
  app.post('/CreateOrUpdateIncome', { preHandler: resident, schema: { body: IncomeInput } }, save());
  app.post('/CreateOrUpdateGigEconomy', { preHandler: resident, schema: { body: IncomeInput } }, save('gig_economy'));
  app.post('/CreateOrUpdateZeroIncome', { preHandler: resident, schema: { body: IncomeInput } }, save('zero_income'));

  app.delete('/:id', { preHandler: resident, schema: { params: IdParams } }, async (request, reply) => {
    await editHousehold(app, request, (h) => deleteIncome(app.db, h, request.params.id));
    return reply.ok({ id: request.params.id }, 'Income deleted');
  });

  app.get('/GetIncomeTypes', { preHandler: signedIn('any') }, async (_request, reply) => reply.ok(incomeTypes()));

  app.get('/', { preHandler: signedIn('resident_or_manager'), schema: { querystring: HouseholdQuery } }, async (request, reply) =>
    reply.ok(await readHousehold(app, request, request.query.householdId, (h) => listIncome(app.db, h))),
  );
};
