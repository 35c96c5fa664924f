import { sql } from 'kysely';
import type { SignedInUser } from '../../domain';
import type { Db } from '../../infra/db/database';
import { householdFlags } from './household-flags';

/** Finds a user by username or email, case-insensitively (spec section 4: login takes either). */
export async function findUserForLogin(db: Db, usernameOrEmail: string) {
  const key = usernameOrEmail.toLowerCase();
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', key), eb(sql`lower(email)`, '=', key)]))
    .executeTakeFirst();
}

/** The signed-in user object of spec section 3, assembled from the user, household and organisation. */
export async function loadSignedInUser(db: Db, userId: string): Promise<SignedInUser | null> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('organizations as o', 'o.id', 'u.organization_id')
    .leftJoin('households as h', 'h.head_user_id', 'u.id')
    .select([
      'u.id',
      'u.username',
      'u.email',
      'u.phone_number',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.mfa_enabled',
      'u.organization_id',
      'o.email as org_email',
      'o.phone as org_phone',
      'h.id as household_id',
      'h.household_size',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const flags = await householdFlags(db, row.household_id);
  return {
    userId: row.id,
    username: row.username,
    email: row.email,
    phoneNumber: row.phone_number ?? '',
    firstName: row.first_name,
    lastName: row.last_name,
    isMfaEnabled: row.mfa_enabled,
    role: row.role,
    isRecertificationExpired: flags.isRecertificationExpired,
    isProfileLocked: flags.isProfileLocked,
    isTenantSigned: flags.isTenantSigned,
    organizationPhone: row.org_phone ?? '',
    organizationEmail: row.org_email ?? '',
    organizationId: row.organization_id ?? '',
    householdSize: row.household_size ?? 0,
    tenantId: row.role === 'Tenant' ? (row.household_id ?? '') : '',
    isApplicant: row.role === 'User',
    isHousingAmbassador: row.role === 'HousingAmbassador',
    underRelocation: flags.underRelocation,
    isManager: row.role === 'Manager',
  };
}

/** The household whose head is this user, if any. */
export async function householdOf(db: Db, userId: string) {
  return db.selectFrom('households').selectAll().where('head_user_id', '=', userId).executeTakeFirst();
}

export async function organizationOf(db: Db, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('organization_id').where('id', '=', userId).executeTakeFirst();
  return row?.organization_id ?? null;
}

/** The contact a message goes to, in the user's language; null when the user has no such contact. */
export async function contactOf(db: Db, userId: string, channel: 'email' | 'sms') {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'phone_number', 'first_name', 'username', 'preferred_language'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return null;
  const to = channel === 'sms' ? user.phone_number : user.email;
  return to ? { ...user, to } : null;
}

/** `ja***@example.org`, `*******0142`: shows a person which contact a code went to without revealing it. */
export function maskEmail(email: string | null | undefined): string {
  if (!email) return '';
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 2)}***@${domain}`;
}

export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  const digits = phone.replace(/\D/g, '');
  return `${'*'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}
