import { sql } from 'kysely';
import { phoneKey } from '../../domain/sms';
import type { Db } from '../db/database';

/** True when the number texted STOP and has not texted START since. */
export async function isOptedOut(db: Db, phone: string | null | undefined): Promise<boolean> {
  if (!phone) return false;
  const row = await db.selectFrom('sms_opt_outs').select('opted_out').where('phone_key', '=', phoneKey(phone)).executeTakeFirst();
  return row?.opted_out ?? false;
}

/** Records STOP (true) or START (false) from a number; the latest word counts. */
export async function setOptedOut(db: Db, phone: string, optedOut: boolean): Promise<void> {
  const key = phoneKey(phone);
  if (!key) return;
  await db
    .insertInto('sms_opt_outs')
    .values({ phone_key: key, opted_out: optedOut })
    .onConflict((oc) => oc.column('phone_key').doUpdateSet({ opted_out: optedOut, changed_at: sql`now()` }))
    .execute();
}
