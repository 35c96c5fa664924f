import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { enqueueNotification } from '../../infra/db/repositories/notification-outbox';
import type { CreateResidentBody, UserListRow } from '../../domain';
import type { Db } from '../../infra/db/database';
import { HttpError } from '../errors';
import { issueLinkToken, LINK_TTL_HOURS } from './otp';
import { requireAmbassadorOrganizations } from './organizations';
import { getUserListRow } from './user-lists';
import { findUserForLogin } from './users';

/** The password link of an account made for someone lasts longer than a reset link: they may read it days later. */
export const INVITE_PASSWORD_TTL_HOURS = 72;

type ResidentInput = ReturnType<typeof CreateResidentBody.parse>;

/**
 * "Create new applicant" and "Add user" of the ambassador's users list (spec section 2): a resident
 * account in one of the ambassador's organisations. Nobody knows its password: the person confirms
 * the email and chooses one from the invitation. A tenant then matches their resident profile at
 * first sign-in. Making the account grants the ambassador nothing: access is asked for separately.
 */
export async function createResidentAccount(db: Db, ambassadorId: string, body: ResidentInput): Promise<UserListRow> {
  const orgs = await requireAmbassadorOrganizations(db, ambassadorId);
  if (!orgs.includes(body.organizationId)) throw new HttpError(404, 'notFound');
  if (await findUserForLogin(db, body.username)) throw new HttpError(409, 'usernameTaken');
  if (await findUserForLogin(db, body.email)) throw new HttpError(409, 'emailTaken');
  const org = await db.selectFrom('organizations').select('name').where('id', '=', body.organizationId).executeTakeFirstOrThrow();
  const passwordHash = await hash(randomBytes(32).toString('base64url'));
  let userId: string;
  try {
    userId = await db.transaction().execute(async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          username: body.username,
          email: body.email.toLowerCase(),
          phone_number: body.phoneNumber,
          first_name: body.firstName,
          last_name: body.lastName,
          role: body.role,
          password_hash: passwordHash,
          organization_id: body.organizationId,
          preferred_language: body.preferredLanguage,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const verify = await issueLinkToken(trx, user.id, 'verify_email', LINK_TTL_HOURS.verify_email * 3600);
      const password = await issueLinkToken(trx, user.id, 'reset_password', INVITE_PASSWORD_TTL_HOURS * 3600);
      const q = (token: string) => `userId=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}`;
      await enqueueNotification(trx, {
        userId: user.id,
        channel: 'email',
        toAddress: body.email.toLowerCase(),
        template: 'account-invite',
        language: body.preferredLanguage,
        params: { firstName: body.firstName, organizationName: org.name, username: body.username, verifyPath: `/verify-email?${q(verify)}`, passwordPath: `/resetpassword?${q(password)}` },
      });
      return user.id;
    });
  } catch (error) {
    // Two accounts racing for one name: the unique index decides.
    if ((error as { code?: string }).code === '23505') throw new HttpError(409, 'usernameTaken');
    throw error;
  }
  return (await getUserListRow(db, userId))!;
}
