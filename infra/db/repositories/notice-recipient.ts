import type { CaseNotice } from '../../../domain';
import type { Db } from '../database';

/**
 * Who a case's person is now. A case fixes its applicant when it starts; a household entered from
 * paper that then claims its application online gets a new head (api/services/paper-office.ts),
 * and the placeholder it replaced can never sign in nor be written to (`@no-login.invalid`). So
 * the recipient is resolved when a notice is sent, or a letter's signers are listed, rather than
 * taken from the case's start: the claimed household's head answers for its placeholder.
 */
export async function currentPerson(db: Db, userId: string): Promise<string> {
  const claimed = await db.selectFrom('households').select('head_user_id').where('claimed_from_user_id', '=', userId).executeTakeFirst();
  return claimed?.head_user_id ?? userId;
}

/** The notice addressed to whoever answers for its person now (see currentPerson). */
export async function addressedNow(db: Db, notice: CaseNotice): Promise<CaseNotice> {
  const userId = await currentPerson(db, notice.userId);
  return userId === notice.userId ? notice : { ...notice, userId };
}
