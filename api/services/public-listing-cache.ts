import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../infra/db/database';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The public opportunity pages (the list and one opportunity, as an anonymous visitor sees them)
 * from this replica's memory: on the day a popular lottery opens, thousands of people read the same
 * few answers, which change only when a manager publishes or edits. Each answer is serialised and
 * compressed once, sent with an ETag so a browser or a CDN revalidates with a 304.
 *
 * A write to what the pages show moves a counter in PostgreSQL by trigger (migration
 * `public-listing-generation`); a replica reads it at most once every `checkEveryMs` and drops its
 * copies when it moved, so every replica shows a publish within about a second. Copies also expire
 * after `ttlMs`, because the pages count days until each lottery closes.
 */
export interface PublicListingCacheOptions {
  checkEveryMs: number;
  ttlMs: number;
  maxEntries: number;
}

interface Entry {
  etag: string;
  status: number;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  storedAt: number;
}

export class PublicListingCache {
  private readonly entries = new Map<string, Promise<Entry>>();
  private generation: string | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: PublicListingCacheOptions = { checkEveryMs: 1000, ttlMs: 60_000, maxEntries: 1000 },
  ) {}

  /** Drops every copy at once (this replica wrote, or a test says so). */
  invalidate(): void {
    this.entries.clear();
  }

  /** The counter, read again when the last read is older than `checkEveryMs` (one read at a time). */
  private async freshen(): Promise<void> {
    if (Date.now() - this.checkedAt < this.options.checkEveryMs) return;
    this.checking ??= (async () => {
      try {
        const row = await this.db.selectFrom('public_listing_generation').select('generation').where('id', '=', 1).executeTakeFirst();
        const generation = String(row?.generation ?? '0');
        if (generation !== this.generation) this.invalidate();
        this.generation = generation;
        this.checkedAt = Date.now();
      } finally {
        this.checking = null;
      }
    })();
    await this.checking;
  }

  /**
   * Answers `request` from the copy under `key`, made by `build` (an envelope and its status) when
   * there is none or it is stale; concurrent misses of one key share one build.
   */
  async serve(request: FastifyRequest, reply: FastifyReply, key: string, build: () => Promise<{ status: number; body: unknown }>): Promise<FastifyReply> {
    await this.freshen();
    let pending = this.entries.get(key);
    const stale = async (p: Promise<Entry>) => Date.now() - (await p).storedAt > this.options.ttlMs;
    if (!pending || (await stale(pending).catch(() => true))) {
      pending = this.make(build);
      if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, pending);
      // A failed build is not kept: the next request builds again.
      pending.catch(() => this.entries.get(key) === pending && this.entries.delete(key));
    }
    const entry = await pending;
    reply.header('etag', entry.etag).header('cache-control', 'public, no-cache').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    const accepted = String(request.headers['accept-encoding'] ?? '');
    reply.code(entry.status).type('application/json; charset=utf-8');
    if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(entry.br);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(entry.gzip);
    return reply.send(entry.identity);
  }

  private async make(build: () => Promise<{ status: number; body: unknown }>): Promise<Entry> {
    const { status, body } = await build();
    const identity = Buffer.from(JSON.stringify(body));
    const [br, gz] = await Promise.all([brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }), gzip(identity, { level: 9 })]);
    const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
    return { etag, status, identity, br, gzip: gz, storedAt: Date.now() };
  }
}
