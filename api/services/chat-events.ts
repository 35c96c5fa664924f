import { sql } from 'kysely';
import type { Db } from '../../infra/db/database';

/**
 * Live delivery of messages with the managing office. Every change to a
 * conversation is announced with PostgreSQL NOTIFY on one channel; each API replica LISTENs and
 * passes it to the open pages it serves (api/plugins/chat-events.ts), so a message written through
 * one replica reaches a page streaming from another. The notice names the conversation and what
 * happened, never the text: pages fetch the message through the guarded history route.
 */
export const CHAT_EVENTS_CHANNEL = 'chat_events';

export type ChatEventKind = 'message' | 'deleted' | 'pinned' | 'seen';

export interface ChatEvent {
  householdId: string;
  organizationId: string;
  kind: ChatEventKind;
}

export async function announceChatEvent(db: Db, event: ChatEvent): Promise<void> {
  await sql`select pg_notify(${CHAT_EVENTS_CHANNEL}, ${JSON.stringify(event)})`.execute(db);
}

/** Reads a notice's payload; anything else on the channel is ignored. */
export function parseChatEvent(payload: string | undefined): ChatEvent | null {
  try {
    const value = JSON.parse(payload ?? '') as Partial<ChatEvent>;
    if (typeof value.householdId !== 'string' || typeof value.organizationId !== 'string' || typeof value.kind !== 'string') return null;
    return { householdId: value.householdId, organizationId: value.organizationId, kind: value.kind };
  } catch {
    return null;
  }
}

/** Which conversations a signed-in page hears of: a resident's household's, a manager's organisation's. */
export async function eventScope(db: Db, userId: string, role: string): Promise<{ householdId: string | null; organizationId: string | null }> {
  if (role === 'Manager') {
    const me = await db.selectFrom('users').select('organization_id').where('id', '=', userId).executeTakeFirst();
    return { householdId: null, organizationId: me?.organization_id ?? null };
  }
  const household = await db.selectFrom('households').select('id').where('head_user_id', '=', userId).executeTakeFirst();
  return { householdId: household?.id ?? null, organizationId: null };
}
