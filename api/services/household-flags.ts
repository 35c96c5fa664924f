import { isProfileLocked } from '../../infra/db/repositories/profile-locks';
import type { Db } from '../../infra/db/database';

export interface HouseholdFlags {
  isProfileLocked: boolean;
  isRecertificationExpired: boolean;
  isTenantSigned: boolean;
  underRelocation: boolean;
}

/**
 * The household's flags of the signed-in user and profile lock status (spec section 3), read from
 * the profile lock, the newest recertification case and the relocation read model.
 */
export async function householdFlags(db: Db, householdId: string | null): Promise<HouseholdFlags> {
  if (!householdId) return { isProfileLocked: false, isRecertificationExpired: false, isTenantSigned: false, underRelocation: false };
  const [locked, latest, relocation] = await Promise.all([
    isProfileLocked(db, householdId),
    db
      .selectFrom('recertification_cases')
      .select(['status', 'tenant_signed'])
      .where('household_id', '=', householdId)
      .orderBy('started_at', 'desc')
      .executeTakeFirst(),
    db
      .selectFrom('relocation_cases')
      .select('under_relocation')
      .where('household_id', '=', householdId)
      .where('under_relocation', '=', true)
      .executeTakeFirst(),
  ]);
  return {
    isProfileLocked: locked,
    isRecertificationExpired: latest?.status === 'expired',
    isTenantSigned: latest?.tenant_signed ?? false,
    underRelocation: relocation !== undefined,
  };
}
