import { sql } from 'kysely';
import { phoneKey, type Page } from '../../domain';
import {
  ALERT_CONFIRMATION_DAYS,
  ALERT_PATHS,
  ALERT_SUBSCRIBE_PER_CONTACT_PER_HOUR,
  MAX_ALERTS_PER_PERSON,
  type AlertInput,
  type AlertView,
  type PublicSubscribeInput,
} from '../../domain/listing-alerts';
import { DAY } from '../../domain/time';
import { dataCipher } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { alertView, criteriaColumns, newToken, tokenHash } from '../../infra/db/repositories/listing-alerts';
import { enqueueNotification } from '../../infra/db/repositories/notification-outbox';
import { HttpError, notFound, TooManyAttempts } from '../errors';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';
import { hashCode } from './otp';

/**
 * Listing alerts: a signed-in household's own alerts (list, create, change,
 * pause, delete: another person's alert is not found), a signed-out visitor's subscription by
 * e-mail or text with double opt-in, and confirm and unsubscribe by the token of a link. Tokens
 * are stored only as hashes; the visitor's address is sealed, and found again by a keyed hash.
 */

const VIEW_COLUMNS = ['id', 'channel', 'language', 'frequency', 'status', 'created_at', 'tenure', 'bedroom_types', 'areas', 'accessibility', 'set_aside_groups', 'personal_sealed'] as const;

const KEYSET: Keyset = { keys: [{ expr: sql`created_at`, type: 'timestamptz' }], id: sql`id`, idType: 'uuid' };
const TAG = 'alerts';

export async function listAlerts(db: Db, userId: string, query: { cursor?: string; limit: number }): Promise<Page<AlertView>> {
  const after = decodeCursor(query.cursor, KEYSET, TAG);
  let q = db.selectFrom('listing_alerts').select([...VIEW_COLUMNS, ...keysetSelections(KEYSET)]).where('user_id', '=', userId);
  if (after) q = q.where(keysetAfter(KEYSET, 'desc', after));
  const rows = await orderByKeyset(q, KEYSET, 'desc').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, KEYSET, TAG, alertView);
}

async function own(db: Db, userId: string, id: string) {
  const row = await db.selectFrom('listing_alerts').select(VIEW_COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function getAlert(db: Db, userId: string, id: string): Promise<AlertView> {
  return alertView(await own(db, userId, id));
}

/** A text alert needs a number on the account (Settings), else it could reach nobody. */
async function checkChannel(db: Db, userId: string, channel: AlertInput['channel']): Promise<void> {
  if (channel !== 'sms') return;
  const user = await db.selectFrom('users').select('phone_number').where('id', '=', userId).executeTakeFirst();
  if (!user?.phone_number) throw new HttpError(422, 'noContactForChannel');
}

export async function createAlert(db: Db, userId: string, input: AlertInput): Promise<AlertView> {
  await checkChannel(db, userId, input.channel);
  const { count } = await db.selectFrom('listing_alerts').select((eb) => eb.fn.countAll<string>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  if (Number(count) >= MAX_ALERTS_PER_PERSON) throw new HttpError(409, 'actionNotAllowedNow');
  const unsubscribe = newToken('alert_unsubscribe_token');
  const row = await db
    .insertInto('listing_alerts')
    .values({
      user_id: userId,
      channel: input.channel,
      language: input.language,
      frequency: input.frequency,
      // The account's own address or number was verified by signing in: no opt-in round.
      status: 'active',
      confirmed_at: new Date(),
      ...criteriaColumns(input.criteria),
      unsubscribe_token_hash: unsubscribe.hash,
      unsubscribe_token_sealed: dataCipher().encrypt(unsubscribe.token),
    })
    .returning(VIEW_COLUMNS)
    .executeTakeFirstOrThrow();
  return alertView(row);
}

export async function updateAlert(db: Db, userId: string, id: string, input: AlertInput): Promise<AlertView> {
  await own(db, userId, id);
  await checkChannel(db, userId, input.channel);
  const row = await db
    .updateTable('listing_alerts')
    .set({ channel: input.channel, language: input.language, frequency: input.frequency, ...criteriaColumns(input.criteria), updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(VIEW_COLUMNS)
    .executeTakeFirstOrThrow();
  return alertView(row);
}

export async function setAlertPaused(db: Db, userId: string, id: string, paused: boolean): Promise<AlertView> {
  const current = await own(db, userId, id);
  if (current.status === 'pending_confirmation') throw new HttpError(409, 'actionNotAllowedNow');
  const row = await db
    .updateTable('listing_alerts')
    .set({ status: paused ? 'paused' : 'active', updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(VIEW_COLUMNS)
    .executeTakeFirstOrThrow();
  return alertView(row);
}

export async function deleteAlert(db: Db, userId: string, id: string): Promise<void> {
  const result = await db.deleteFrom('listing_alerts').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound();
}

/** A visitor's address as one key: e-mail without case, a number by its digits; keyed so a copy of the database cannot test guesses. */
export const contactHash = (contact: { email?: string; phone?: string }) =>
  hashCode(contact.email ? `alert-contact:email:${contact.email.trim().toLowerCase()}` : `alert-contact:sms:${phoneKey(contact.phone ?? '')}`);

/**
 * A signed-out visitor saves an alert with only an e-mail address or a mobile number. Nothing is
 * sent to it until it is confirmed: by the link of the e-mail (its page's button POSTs the token)
 * or by replying YES to the text. At most a few confirmations per hour go to one address, whoever
 * asks (429). The answer is the same whether or not the address already had alerts.
 */
export async function subscribe(db: Db, input: PublicSubscribeInput): Promise<{ status: 'pending_confirmation'; channel: 'email' | 'sms' }> {
  const channel = input.email ? ('email' as const) : ('sms' as const);
  const address = input.email ?? input.phone!;
  const hash = contactHash(input);
  return db.transaction().execute(async (trx) => {
    // One subscription at a time per address: their checks are counted in order.
    await sql`select pg_advisory_xact_lock(hashtext(${hash}))`.execute(trx);
    const { count } = await trx
      .selectFrom('listing_alert_confirmation_sends')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('contact_hash', '=', hash)
      .where('sent_at', '>', new Date(Date.now() - 3_600_000))
      .executeTakeFirstOrThrow();
    if (Number(count) >= ALERT_SUBSCRIBE_PER_CONTACT_PER_HOUR) throw new TooManyAttempts(3600);
    const { n } = await trx.selectFrom('listing_alerts').select((eb) => eb.fn.countAll<string>().as('n')).where('contact_hash', '=', hash).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_ALERTS_PER_PERSON) throw new HttpError(409, 'actionNotAllowedNow');
    const confirm = channel === 'email' ? newToken('alert_confirm_token') : null;
    const unsubscribe = newToken('alert_unsubscribe_token');
    await trx
      .insertInto('listing_alerts')
      .values({
        user_id: null,
        contact_sealed: dataCipher().encrypt(address),
        contact_hash: hash,
        channel,
        language: input.language,
        frequency: input.frequency,
        status: 'pending_confirmation',
        ...criteriaColumns(input.criteria),
        confirmation_token_hash: confirm?.hash ?? null,
        unsubscribe_token_hash: unsubscribe.hash,
        unsubscribe_token_sealed: dataCipher().encrypt(unsubscribe.token),
      })
      .execute();
    await trx.insertInto('listing_alert_confirmation_sends').values({ contact_hash: hash }).execute();
    await enqueueNotification(trx, {
      userId: null,
      channel,
      toAddress: address,
      template: 'listing-alert-confirm',
      language: input.language,
      params: confirm ? { path: `${ALERT_PATHS.confirm}?${new URLSearchParams({ token: confirm.token })}` } : {},
    });
    return { status: 'pending_confirmation' as const, channel };
  });
}

const confirmable = () => new Date(Date.now() - ALERT_CONFIRMATION_DAYS * DAY);

/** The e-mail link's POST: the pending alert starts. A spent, unknown or expired token is a 410. */
export async function confirmByToken(db: Db, token: string): Promise<{ status: 'active' }> {
  const row = await db
    .updateTable('listing_alerts')
    .set({ status: 'active', confirmed_at: new Date(), confirmation_token_hash: null, updated_at: new Date() })
    .where('confirmation_token_hash', '=', tokenHash(token))
    .where('status', '=', 'pending_confirmation')
    .where('created_at', '>', confirmable())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new HttpError(410, 'linkExpired');
  return { status: 'active' };
}

/** A YES text from a number with pending alerts confirms them; false when it had none (another YES meaning may apply). */
export async function confirmBySms(db: Db, from: string): Promise<boolean> {
  const rows = await db
    .updateTable('listing_alerts')
    .set({ status: 'active', confirmed_at: new Date(), updated_at: new Date() })
    .where('contact_hash', '=', contactHash({ phone: from }))
    .where('channel', '=', 'sms')
    .where('status', '=', 'pending_confirmation')
    .where('created_at', '>', confirmable())
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** STOP from a number ends every text alert going to it: a visitor's, and those of accounts with that number. */
export async function endTextAlerts(db: Db, from: string): Promise<void> {
  const key = phoneKey(from);
  if (!key) return;
  await db.deleteFrom('listing_alerts').where('contact_hash', '=', contactHash({ phone: from })).where('channel', '=', 'sms').execute();
  await db
    .deleteFrom('listing_alerts')
    .where('channel', '=', 'sms')
    .where('user_id', 'in', (eb) =>
      eb
        .selectFrom('users')
        .select('id')
        .where(sql<boolean>`(case when length(regexp_replace(coalesce(phone_number, ''), '\\D', '', 'g')) = 10 then '1' else '' end) || regexp_replace(coalesce(phone_number, ''), '\\D', '', 'g') = ${key}`),
    )
    .execute();
}

/** The unsubscribe page's POST, and the mail client's one-click POST: the alert is deleted. */
export async function unsubscribeByToken(db: Db, token: string): Promise<boolean> {
  const result = await db.deleteFrom('listing_alerts').where('unsubscribe_token_hash', '=', tokenHash(token)).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
