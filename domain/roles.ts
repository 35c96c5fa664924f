import { z } from 'zod';

/** Spec section 3/6: the only roles a token may carry; anything else is not kept. */
export const ROLES = ['User', 'Tenant', 'Admin', 'Manager', 'HousingAmbassador'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Reads a role claim the way section 3 says: a value outside the list is dropped. */
export function parseRole(value: unknown): Role | null {
  const parsed = Role.safeParse(value);
  return parsed.success ? parsed.data : null;
}
