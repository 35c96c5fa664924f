import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ConfirmSelfEmploymentInput, IncomeChangeForecastInput, IncomeInput, LumpSumPaymentInput, ZeroIncomeDeclarationInput } from '../../domain';
import { notFound } from '../errors';
import { signedIn } from '../guards';
import { getProfileRow, upsertProfile } from '../services/household-profile';
import { saveIncome } from '../services/household-income';
import { editHousehold } from './household-helpers';

/**
 * `/api/SpecialIncome` (spec section 7). Each answer is kept per member on the profile; the zero-income
 * declaration and child support also become income entries so the household income rules see them.
 */
export const specialIncomeRoutes: FastifyPluginAsyncZod = async (app) => {
  const resident = signedIn('resident');
  const keep = async (householdId: string, kind: string, memberId: string, value: unknown) => {
    const member = await app.db.selectFrom('household_members').select('id').where('id', '=', memberId).where('household_id', '=', householdId).executeTakeFirst();
    if (!member) throw notFound();
    const row = await getProfileRow(app.db, householdId);
    const special = { ...((row?.special_income as Record<string, Record<string, unknown>> | null) ?? {}) };
    special[kind] = { ...(special[kind] ?? {}), [memberId]: value };
    await upsertProfile(app.db, householdId, { special_income: JSON.stringify(special) });
    return value;
  };
  const simple = <S extends z.ZodType<{ memberId: string }>>(path: string, schema: S) =>
    app.post(path, { preHandler: resident, schema: { body: schema } }, async (request, reply) => {
      const body = request.body as z.infer<S>;
      return reply.ok(await editHousehold(app, request, (h) => keep(h, path.slice(1), body.memberId, body)));
    });

  simple('/IncomeChangeForecast', IncomeChangeForecastInput);
  simple('/ConfirmSelfEmployment', ConfirmSelfEmploymentInput);
  simple('/LumpSumPayment', LumpSumPaymentInput);

  app.post('/ZeroIncomeDeclaration', { preHandler: resident, schema: { body: ZeroIncomeDeclarationInput } }, async (request, reply) =>
    reply.ok(
      await editHousehold(app, request, async (h) => {
        await keep(h, 'ZeroIncomeDeclaration', request.body.memberId, request.body);
        // The 12-month look-ahead (expected income, its date and amount) stays on the zero-income entry.
        return saveIncome(app.db, h, { ...request.body, incomeType: 'zero_income', amount: 0, frequency: 'monthly', sourceName: null, awardLetterDate: null });
      }),
    ),
  );

  app.post('/ChildSupportAlimony', { preHandler: resident, schema: { body: IncomeInput } }, async (request, reply) =>
    reply.ok(await editHousehold(app, request, (h) => saveIncome(app.db, h, request.body))),
  );
};
