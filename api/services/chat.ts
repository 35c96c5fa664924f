import { sql } from 'kysely';
import type { ActiveChat, ChatHistoryPage, ChatMessage, ChatMessageKind, ChatSide, ChatUnseen, Page, SendChatMessageBody } from '../../domain';
import { sendNotice } from '../../infra/db/repositories/notification-outbox';
import { dataCipher } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { HttpError, forbidden, notFound } from '../errors';
import { announceChatEvent } from './chat-events';
import type { Session } from '../session';
import { decodeCursor, keysetAfter, keysetSelections, orderByKeyset, toPage, type Keyset } from './cursor';

/**
 * Messages with the managing office (spec section 7 "Chat"): one conversation per household and
 * organisation, bodies sealed at rest. A household talks with an organisation it has a link with
 * (its own, or one it has an application or case with); a manager with the households of theirs.
 */
const HISTORY: Keyset = { keys: [{ expr: sql.ref('m.created_at'), type: 'timestamptz' }], id: sql.ref('m.id'), idType: 'uuid' };
const ACTIVE: Keyset = { keys: [{ expr: sql.ref('c.last_message_at'), type: 'timestamptz' }], id: sql.ref('c.household_id'), idType: 'uuid' };

/** Whether the household and the organisation are linked (its organisation, or an application or case with it). */
function linked(householdId: string, organizationId: string) {
  return sql<boolean>`(
    exists (select 1 from households where id = ${householdId} and organization_id = ${organizationId})
    or exists (select 1 from applications where household_id = ${householdId} and organization_id = ${organizationId})
    or exists (select 1 from recertification_cases where household_id = ${householdId} and organization_id = ${organizationId})
    or exists (select 1 from relocation_cases where household_id = ${householdId} and organization_id = ${organizationId}))`;
}

/** The caller's side on a conversation, or 403 (another household's, another organisation's, or no link). */
export async function sideOnConversation(db: Db, session: Session, householdId: string, organizationId: string): Promise<ChatSide> {
  const row = await db
    .selectFrom('users as u')
    .select([
      'u.organization_id',
      sql<string | null>`(select id from households where head_user_id = u.id)`.as('household_id'),
      linked(householdId, organizationId).as('linked'),
    ])
    .where('u.id', '=', session.userId)
    .executeTakeFirst();
  if (!row?.linked) throw forbidden();
  if ((session.role === 'User' || session.role === 'Tenant') && row.household_id === householdId) return 'household';
  if (session.role === 'Manager' && row.organization_id === organizationId) return 'staff';
  throw forbidden();
}

const toMessage = (r: { id: string; kind?: ChatMessageKind; household_id: string; organization_id: string; sender_side: ChatSide; sender_user_id: string | null; body_encrypted: string | null; pinned: boolean; deleted_at: Date | null; created_at: Date }): ChatMessage => ({
  messageId: r.id,
  kind: r.kind ?? 'text',
  householdId: r.household_id,
  organizationId: r.organization_id,
  side: r.sender_side,
  senderUserId: r.sender_user_id,
  body: r.body_encrypted ? dataCipher().decrypt(r.body_encrypted) : null,
  pinned: r.pinned,
  deleted: r.deleted_at !== null,
  createdAt: new Date(r.created_at).toISOString(),
});

/** `POST SendMessage`: the household writes to an organisation, or a manager to a household of theirs. */
export async function sendMessage(db: Db, session: Session, body: SendChatMessageBody, options: { kind?: ChatMessageKind; documentId?: string | null } = {}): Promise<ChatMessage> {
  let householdId = body.householdId;
  let organizationId = body.organizationId;
  if (session.role === 'Manager') {
    if (!householdId) throw new HttpError(400, 'validation', 'Invalid household id');
    organizationId = (await db.selectFrom('users').select('organization_id').where('id', '=', session.userId).executeTakeFirst())?.organization_id ?? undefined;
    if (!organizationId) throw forbidden();
  } else {
    const household = await db.selectFrom('households').select(['id', 'organization_id']).where('head_user_id', '=', session.userId).executeTakeFirst();
    if (!household) throw forbidden();
    if (householdId && householdId !== household.id) throw forbidden();
    householdId = household.id;
    organizationId ??= household.organization_id ?? undefined;
    if (!organizationId) throw new HttpError(400, 'validation', 'Invalid organization id');
  }
  const side = await sideOnConversation(db, session, householdId, organizationId);
  // A retried send (same Idempotency-Key) whose first attempt was written answers with that message.
  const requestKey = session.requestKey ?? null;
  if (requestKey) {
    const sent = await db.selectFrom('chat_messages').selectAll().where('request_key', '=', requestKey).executeTakeFirst();
    if (sent) return toMessage(sent);
  }
  const written = await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('chat_conversations')
      .values({ household_id: householdId, organization_id: organizationId, last_message_at: sql`clock_timestamp()` as never })
      .onConflict((oc) => oc.columns(['household_id', 'organization_id']).doUpdateSet({ last_message_at: sql`clock_timestamp()` as never }))
      .returning('last_message_at')
      .executeTakeFirstOrThrow();
    return trx
      .insertInto('chat_messages')
      .values({ household_id: householdId, organization_id: organizationId, sender_user_id: session.userId, sender_side: side, body_encrypted: dataCipher().encrypt(body.message), kind: options.kind ?? 'text', document_id: options.documentId ?? null, created_at: inserted.last_message_at, request_key: requestKey })
      // The same keyed send running twice at once (its first attempt's lease ran out): one message.
      .onConflict((oc) => oc.column('request_key').where('request_key', 'is not', null).doNothing())
      .returningAll()
      .executeTakeFirst();
  });
  if (!written) return toMessage(await db.selectFrom('chat_messages').selectAll().where('request_key', '=', requestKey).executeTakeFirstOrThrow());
  const message = written;
  // The writer has read everything up to their own message.
  await markSeen(db, session.userId, householdId, organizationId, message.created_at);
  if (side === 'staff') {
    // The household hears of new messages by the channels it chose, at most once an hour (the text stays in the portal).
    const head = await db.selectFrom('households').select('head_user_id').where('id', '=', householdId).executeTakeFirstOrThrow();
    const hour = new Date(message.created_at).toISOString().slice(0, 13);
    await sendNotice(db, { userId: head.head_user_id, template: 'support-ticket', params: { event: 'chat', ticketId: '', ticketRef: '', audience: 'requester' }, dedupeKey: `chat:${householdId}:${organizationId}:${hour}` });
  }
  await announceChatEvent(db, { householdId, organizationId, kind: 'message' });
  return toMessage(message);
}

/** `GET GetPreviousMessages/{householdId}/{organizationId}`: newest first, by cursor, with the other side's seen mark. */
export async function history(db: Db, session: Session, householdId: string, organizationId: string, q: { cursor?: string | undefined; limit: number }): Promise<ChatHistoryPage> {
  // A bad cursor is refused before anything is read, whoever asks (it says nothing about the conversation).
  const after = decodeCursor(q.cursor, HISTORY, 'chat');
  const side = await sideOnConversation(db, session, householdId, organizationId);
  let query = db
    .selectFrom('chat_messages as m')
    .select(['m.id', 'm.kind', 'm.household_id', 'm.organization_id', 'm.sender_side', 'm.sender_user_id', 'm.body_encrypted', 'm.pinned', 'm.deleted_at', 'm.created_at', ...keysetSelections(HISTORY)])
    .where('m.household_id', '=', householdId)
    .where('m.organization_id', '=', organizationId);
  if (after) query = query.where(keysetAfter(HISTORY, 'desc', after));
  const rows = await orderByKeyset(query, HISTORY, 'desc').limit(q.limit + 1).execute();
  const page: Page<ChatMessage> = toPage(rows, q.limit, HISTORY, 'chat', toMessage);
  // How far anyone on the other side has read (the household's head, or any manager of the organisation).
  const seen = await db
    .selectFrom('chat_reads as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select((eb) => eb.fn.max('r.seen_up_to').as('at'))
    .where('r.household_id', '=', householdId)
    .where('r.organization_id', '=', organizationId)
    .where('u.role', side === 'household' ? '=' : '!=', 'Manager')
    .executeTakeFirst();
  return { ...page, otherSideSeenUpTo: seen?.at ? new Date(seen.at).toISOString() : null };
}

async function messageWithSide(db: Db, session: Session, messageId: string) {
  const m = await db.selectFrom('chat_messages').selectAll().where('id', '=', messageId).executeTakeFirst();
  if (!m) throw notFound();
  return { m, side: await sideOnConversation(db, session, m.household_id, m.organization_id) };
}

/** `POST SetMessageAsPinned/{id}`: either side pins (or unpins) a message of the conversation. */
export async function pinMessage(db: Db, session: Session, messageId: string, pinned: boolean | undefined): Promise<ChatMessage> {
  const { m } = await messageWithSide(db, session, messageId);
  if (m.deleted_at) throw new HttpError(409, 'notFound', 'This message was deleted');
  const row = await db.updateTable('chat_messages').set({ pinned: pinned ?? !m.pinned }).where('id', '=', messageId).returningAll().executeTakeFirstOrThrow();
  await announceChatEvent(db, { householdId: m.household_id, organizationId: m.organization_id, kind: 'pinned' });
  return toMessage(row);
}

/** `DELETE DeleteMessage/{id}`: only its author deletes a message; its text is wiped, its place kept. */
export async function deleteMessage(db: Db, session: Session, messageId: string): Promise<ChatMessage> {
  const { m } = await messageWithSide(db, session, messageId);
  if (m.sender_user_id !== session.userId) throw new HttpError(403, 'chatMessageNotYours');
  const row = await db.updateTable('chat_messages').set({ body_encrypted: null, pinned: false, deleted_at: m.deleted_at ?? new Date() }).where('id', '=', messageId).returningAll().executeTakeFirstOrThrow();
  await announceChatEvent(db, { householdId: m.household_id, organizationId: m.organization_id, kind: 'deleted' });
  return toMessage(row);
}

async function markSeen(db: Db, userId: string, householdId: string, organizationId: string, upTo: Date): Promise<void> {
  await db
    .insertInto('chat_reads')
    .values({ household_id: householdId, organization_id: organizationId, user_id: userId, seen_up_to: upTo })
    .onConflict((oc) => oc.columns(['household_id', 'organization_id', 'user_id']).doUpdateSet({ seen_up_to: sql`greatest(chat_reads.seen_up_to, excluded.seen_up_to)` as never }))
    .execute();
}

/** `POST UpdateMessageSeenStatus/{householdId}/{organizationId}/{messageId}`: the caller has read up to that message. */
export async function updateSeen(db: Db, session: Session, householdId: string, organizationId: string, messageId: string): Promise<ChatUnseen> {
  await sideOnConversation(db, session, householdId, organizationId);
  const m = await db.selectFrom('chat_messages').select('created_at').where('id', '=', messageId).where('household_id', '=', householdId).where('organization_id', '=', organizationId).executeTakeFirst();
  if (!m) throw notFound();
  await markSeen(db, session.userId, householdId, organizationId, m.created_at);
  // The other side's seen mark changes, and the reader's own other pages clear their count.
  await announceChatEvent(db, { householdId, organizationId, kind: 'seen' });
  return unseen(db, session);
}

/** The header's unread count: messages from the other side after where the caller has read, in all their conversations. */
export async function unseen(db: Db, session: Session): Promise<ChatUnseen> {
  const me = await db
    .selectFrom('users as u')
    .leftJoin('households as h', 'h.head_user_id', 'u.id')
    .select(['u.organization_id', 'h.id as household_id', 'h.organization_id as household_org'])
    .where('u.id', '=', session.userId)
    .executeTakeFirst();
  const staff = session.role === 'Manager';
  const scope = staff ? me?.organization_id : me?.household_id;
  if (!scope || !(staff || session.role === 'User' || session.role === 'Tenant')) return { unseenMessagesCount: 0, activeOrganizationIdForChat: null, householdId: null };
  const row = await db
    .selectFrom('chat_messages as m')
    .leftJoin('chat_reads as r', (j) => j.onRef('r.household_id', '=', 'm.household_id').onRef('r.organization_id', '=', 'm.organization_id').on('r.user_id', '=', session.userId))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(staff ? 'm.organization_id' : 'm.household_id', '=', scope)
    .where('m.sender_side', '=', staff ? 'household' : 'staff')
    .where('m.deleted_at', 'is', null)
    .where(sql<boolean>`m.created_at > coalesce(r.seen_up_to, '-infinity'::timestamptz)`)
    .executeTakeFirstOrThrow();
  return { unseenMessagesCount: Number(row.n), activeOrganizationIdForChat: staff ? null : (me?.household_org ?? null), householdId: staff ? null : (me?.household_id ?? null) };
}

/** `GET active-chats`: the organisation's conversations, latest first, with the manager's unread count in each. */
export async function activeChats(db: Db, session: Session, q: { cursor?: string | undefined; limit: number }): Promise<Page<ActiveChat>> {
  const after = decodeCursor(q.cursor, ACTIVE, 'active-chats');
  let query = db
    .selectFrom('chat_conversations as c')
    .innerJoin('households as h', 'h.id', 'c.household_id')
    .innerJoin('users as u', 'u.id', 'h.head_user_id')
    .select([
      'c.household_id',
      'c.organization_id',
      'c.last_message_at',
      'u.first_name',
      'u.last_name',
      sql<string>`(select count(*) from chat_messages m where m.household_id = c.household_id and m.organization_id = c.organization_id and m.sender_side = 'household' and m.deleted_at is null
        and m.created_at > coalesce((select seen_up_to from chat_reads r where r.household_id = c.household_id and r.organization_id = c.organization_id and r.user_id = ${session.userId}), '-infinity'::timestamptz))`.as('unseen'),
      ...keysetSelections(ACTIVE),
    ])
    .where('c.organization_id', '=', sql<string>`(select organization_id from users where id = ${session.userId})`);
  if (after) query = query.where(keysetAfter(ACTIVE, 'desc', after));
  const rows = await orderByKeyset(query, ACTIVE, 'desc').limit(q.limit + 1).execute();
  return toPage(rows, q.limit, ACTIVE, 'active-chats', (r) => ({
    householdId: r.household_id,
    organizationId: r.organization_id,
    householdName: `${r.first_name} ${r.last_name}`,
    lastMessageAt: new Date(r.last_message_at).toISOString(),
    unseen: Number(r.unseen),
  }));
}
