import fp from 'fastify-plugin';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../infra/config';
import { CHAT_EVENTS_CHANNEL, parseChatEvent, type ChatEvent } from '../services/chat-events';
import { TICKET_EVENTS_CHANNEL, parseTicketEvent, type TicketEvent } from '../../infra/db/repositories/support-ticket-projection';

/** An open page: the conversations it may hear of (its household's, or its organisation's). */
export interface ChatSubscriber {
  householdId: string | null;
  organizationId: string | null;
  /** A change to one of its conversations, or 'resync' after the listener reconnected (notices may have been missed). */
  send(event: ChatEvent | 'resync'): void;
  /** Ends the stream (the replica is shutting down: the page reconnects to another). */
  end(): void;
}

/**
 * An open ticket page: it hears of the tickets the user asked (by user or household),
 * of its organisation's tickets (managers), or of every ticket (admins), by ticket id only.
 */
export interface TicketSubscriber {
  userId: string;
  householdId: string | null;
  organizationId: string | null;
  admin: boolean;
  send(event: { ticketId: string } | 'resync'): void;
  end(): void;
}

export function hearsTicket(s: Omit<TicketSubscriber, 'send' | 'end'>, e: TicketEvent): boolean {
  return s.admin || s.userId === e.requesterUserId || (s.householdId !== null && s.householdId === e.householdId) || (s.organizationId !== null && s.organizationId === e.organizationId);
}

/**
 * One LISTEN connection per API replica, opened when the first page subscribes
 * and kept for the replica's life; NOTIFY fans a change out to every replica, and each passes it
 * to its own open pages of that household or organisation.
 */
export class ChatEventHub {
  private readonly subscribers = new Set<ChatSubscriber>();
  private readonly ticketSubscribers = new Set<TicketSubscriber>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly config: Pick<Config, 'DATABASE_URL' | 'PG_SSL'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts listening if not yet; fails (and the page is told 503) when the database cannot be reached. */
  async listening(): Promise<void> {
    if (this.client) return;
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    await this.connecting;
  }

  subscribe(subscriber: ChatSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  subscribeTickets(subscriber: TicketSubscriber): () => void {
    this.ticketSubscribers.add(subscriber);
    return () => this.ticketSubscribers.delete(subscriber);
  }

  get size(): number {
    return this.subscribers.size + this.ticketSubscribers.size;
  }

  /** Before the server closes: open streams would otherwise keep it waiting. */
  endStreams(): void {
    for (const s of [...this.subscribers, ...this.ticketSubscribers]) s.end();
    this.subscribers.clear();
    this.ticketSubscribers.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.endStreams();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.config.DATABASE_URL, ssl: this.config.PG_SSL ? { rejectUnauthorized: true } : undefined, connectionTimeoutMillis: 10_000 });
    client.on('notification', (message) => {
      if (message.channel === TICKET_EVENTS_CHANNEL) {
        const ticket = parseTicketEvent(message.payload);
        if (ticket) this.dispatchTicket(ticket);
        return;
      }
      const event = message.channel === CHAT_EVENTS_CHANNEL ? parseChatEvent(message.payload) : null;
      if (event) this.dispatch(event);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    await client.connect();
    await client.query(`LISTEN ${CHAT_EVENTS_CHANNEL}`);
    await client.query(`LISTEN ${TICKET_EVENTS_CHANNEL}`);
    this.client = client;
  }

  private dispatch(event: ChatEvent | 'resync'): void {
    for (const s of this.subscribers) {
      if (event === 'resync' || s.householdId === event.householdId || s.organizationId === event.organizationId) s.send(event);
    }
    if (event === 'resync') for (const s of this.ticketSubscribers) s.send('resync');
  }

  /** Only the ticket id leaves the replica: never the text, the requester or the organisation. */
  private dispatchTicket(event: TicketEvent): void {
    for (const s of this.ticketSubscribers) if (hearsTicket(s, event)) s.send({ ticketId: event.ticketId });
  }

  /** The LISTEN connection dropped: reconnect while pages are open, then tell them to look again. */
  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.log.warn({ err: error ?? undefined }, 'chat events: listener connection lost');
    const again = () => {
      this.retry = null;
      if (this.closed || this.size === 0) return;
      this.listening().then(
        () => this.dispatch('resync'),
        () => (this.retry = setTimeout(again, 2_000)),
      );
    };
    this.retry = setTimeout(again, 500);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    chatEvents: ChatEventHub;
  }
}

export const chatEventsPlugin = fp(
  async (app, opts: { config: Pick<Config, 'DATABASE_URL' | 'PG_SSL'> }) => {
    const hub = new ChatEventHub(opts.config, app.log);
    app.decorate('chatEvents', hub);
    app.addHook('preClose', async () => hub.endStreams());
    app.addHook('onClose', async () => hub.close());
  },
  { name: 'chat-events' },
);
