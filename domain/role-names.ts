/**
 * Spec section 3/6: the only roles a token may carry; anything else is not kept. No zod here: the
 * web app's first load (the layouts, the session) reads roles without loading the schemas.
 */
export const ROLES = ['User', 'Tenant', 'Admin', 'Manager', 'HousingAmbassador'] as const;
export type Role = (typeof ROLES)[number];

/** Reads a role claim the way section 3 says: a value outside the list is dropped. */
export function parseRole(value: unknown): Role | null {
  return (ROLES as readonly unknown[]).includes(value) ? (value as Role) : null;
}
