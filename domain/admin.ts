import { z } from 'zod';
import { AmbassadorUsersQuery, type UserListRow } from './ambassador';
import { Role } from './roles';

/** The admin's Users screen: every user, with role filter. */
export const AdminUsersQuery = AmbassadorUsersQuery.extend({ role: Role.optional() });
export type AdminUsersQuery = z.input<typeof AdminUsersQuery>;

export interface AdminUserRow extends UserListRow {
  /** Organisations an ambassador is mapped to (empty for other roles). */
  ambassadorOrganizations: { organizationId: string; name: string }[];
}

export const RoleChangeBody = z.object({ role: Role });

export const ADMIN_USER_ACTIONS = ['roleChanged', 'deactivated', 'reactivated', 'verificationResent', 'organizationAssigned', 'organizationUnassigned', 'ambassadorMapped', 'ambassadorUnmapped'] as const;
export type AdminUserAction = (typeof ADMIN_USER_ACTIONS)[number];

/** One change an admin made to a user. */
export interface AdminAuditEntry {
  id: string;
  at: string;
  action: AdminUserAction;
  actorUserId: string;
  actorName: string;
  detail: Record<string, string | null>;
}
