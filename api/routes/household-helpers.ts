import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { editableHousehold, visibleHousehold } from '../services/household-access';
import { refreshCompletion } from '../../infra/db/repositories/profile-completion';
import { idOf } from '../../domain/ids';

export const IdParams = z.object({ id: idOf('Invalid id') });
/** Managers name the household they review; residents may omit it (their own). */
export const HouseholdQuery = z.object({ householdId: z.string().uuid('Invalid id').optional() });

/**
 * Runs one household edit: the caller's own household, refused when the profile is locked, then
 * the stored completion (households.profile_completion, read by lease-up apply) is refreshed.
 */
export async function editHousehold<T>(app: FastifyInstance, request: FastifyRequest, change: (householdId: string) => Promise<T>): Promise<T> {
  const household = await editableHousehold(app.db, request.session);
  const result = await change(household.id);
  await refreshCompletion(app.db, household.id);
  return result;
}

export async function readHousehold<T>(app: FastifyInstance, request: FastifyRequest, householdId: string | undefined, read: (householdId: string) => Promise<T>): Promise<T> {
  const household = await visibleHousehold(app.db, request.session, householdId);
  return read(household.id);
}
