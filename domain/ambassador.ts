import { z } from 'zod';
import type { AccessGrantStatus, AccessGrantVia } from './access-grant';
import type { ApplicationStatus } from './lease-up';
import { OtpChannel, Phone } from './identity';
import { MESSAGES } from './messages';
import { PageQuery, SortDirection } from './paging';
import type { Role } from './roles';

/** Account status: a deactivated user cannot sign in and their sessions end. */
export const USER_STATUSES = ['active', 'deactivated'] as const;
export const UserStatus = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof UserStatus>;

/** Sort keys of the users lists (spec section 2 columns). */
export const USER_SORTS = ['name', 'username', 'email', 'createdAt', 'status'] as const;
export const UserSort = z.enum(USER_SORTS);
export type UserSort = z.infer<typeof UserSort>;

/** The ambassador's users list (spec section 2 /ambassador/users): search, status, organisation, sort, page. */
export const AmbassadorUsersQuery = PageQuery.extend({
  search: z.string().trim().max(100).optional(),
  status: UserStatus.optional(),
  organizationId: z.string().uuid().optional(),
  sort: UserSort.default('createdAt'),
  dir: SortDirection.default('desc'),
});
export type AmbassadorUsersQuery = z.input<typeof AmbassadorUsersQuery>;

/** A household's consent as shown next to it (null: never asked). */
export interface AccessSummary {
  grantId: string;
  status: AccessGrantStatus;
  expiresAt: string | null;
}

/** One row of the users list: the spec's columns plus what the ambassador may do. */
export interface UserListRow {
  userId: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  phoneNumber: string;
  createdAt: string;
  status: UserStatus;
  emailVerified: boolean;
  role: Role;
  organizationId: string;
  organizationName: string;
}

export interface AmbassadorUserRow extends UserListRow {
  access: AccessSummary | null;
}

/** The ambassador dashboard's counts (users of their organisations), from read models. */
export interface AmbassadorDashboard {
  organizations: number;
  users: { total: number; active: number; deactivated: number; emailVerified: number; profilesComplete: number };
  applications: Partial<Record<ApplicationStatus, number>>;
  recertificationsDue: number;
  access: { pending: number; granted: number };
}

/** A user's dashboard as the ambassador sees it; the household's details only while access is granted. */
export interface AmbassadorUserDashboard {
  user: UserListRow;
  access: AccessSummary | null;
  household: {
    profileCompletion: number;
    householdSize: number;
    applications: { applicationId: string; opportunityName: string; status: ApplicationStatus; appliedAt: string }[];
    recertification: { stage: string; status: string; deadline: string } | null;
  } | null;
}

/** "Create new applicant" and "Add user" (spec section 2): a resident account in one of the ambassador's organisations. */
export const CreateResidentBody = z.object({
  role: z.enum(['User', 'Tenant']).default('User'),
  organizationId: z.string().uuid('Required'),
  firstName: z.string().trim().min(1, 'Required').max(80),
  lastName: z.string().trim().min(1, 'Required').max(80),
  username: z.string().trim().min(3, MESSAGES.invalidUsername).max(60).regex(/^[A-Za-z0-9._-]+$/, MESSAGES.invalidUsername),
  email: z.string().trim().email('Required').max(254),
  phoneNumber: Phone,
  preferredLanguage: z.enum(['en', 'es', 'zh', 'bn']).default('en'),
});
export type CreateResidentBody = z.input<typeof CreateResidentBody>;

/** The ambassador asks a household for access; the code goes to its email or phone. */
export const AccessRequestBody = z.object({ userId: z.string().uuid('Required'), channel: OtpChannel.default('email') });
/** The household reads the code out at the ambassador's desk. */
export const AccessCodeBody = z.object({ userId: z.string().uuid('Required'), code: z.string().trim().regex(/^\d{6}$/, MESSAGES.invalidOtp) });

/** A grant as the household sees it in settings. */
export interface AccessGrantView {
  grantId: string;
  organizationId: string;
  organizationName: string;
  status: AccessGrantStatus;
  requestedAt: string;
  requestedByName: string;
  grantedAt: string | null;
  grantedVia: AccessGrantVia | null;
  expiresAt: string | null;
  endedAt: string | null;
  periodDays: number;
}

/** One line of the audit of actions taken while impersonating (who, for whom, what, when). */
export interface ImpersonationAuditEntry {
  id: string;
  at: string;
  event: 'start' | 'exit' | 'request';
  method: string | null;
  path: string | null;
  statusCode: number | null;
  realUserId: string;
  realUserName: string;
  realUserRole: Role | null;
  actingUserId: string;
  actingUserName: string;
}
