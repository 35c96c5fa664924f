/**
 * Access tokens this process has checked against the database and found live (user active, refresh
 * family not revoked), so a signed-in person's next requests skip that query (the hot paths
 * keep to one database round trip per request).
 *
 * Bounded: at most `maxEntries` sessions, least recently used first out. An entry lives until the
 * earlier of the token's own expiry and `ttlMs` after the check.
 *
 * What it costs, honestly: logout, refresh-token reuse, a password reset, deactivation and a role
 * change forget the user's or family's entries *in this process* at once (they call `forgetFamily` /
 * `forgetUser` below). Another API replica, or a change made to the database by hand, is only seen
 * when that replica's entry runs out: so with several replicas a revoked access token may still be
 * accepted by another replica for up to SESSION_CHECK_CACHE_SECONDS (default 30 s, never longer than
 * the token itself lives). Set it to 0 to check every request against the database, as before.
 */
export class SessionCache {
  private readonly entries = new Map<string, { until: number; userIds: readonly string[]; familyId: string | null }>();
  /** Bumped by every forget: a check that started before a revocation must not store its answer after it. */
  private generation = 0;

  constructor(private readonly maxEntries = 10_000) {}

  static key(userId: string, familyId: string | null, realUserId: string | null): string {
    return `${userId}|${familyId ?? ''}|${realUserId ?? ''}`;
  }

  /** Whether this session was found live recently (and so needs no query now). */
  isLive(key: string, now = Date.now()): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.entries.delete(key);
    if (entry.until <= now) return false;
    // Re-inserted: Map keeps insertion order, so the first key is the least recently used.
    this.entries.set(key, entry);
    return true;
  }

  /** The generation to hand back to `remember` once the database said the session is live. */
  begin(): number {
    return this.generation;
  }

  remember(key: string, started: number, until: number, who: { userIds: readonly string[]; familyId: string | null }, now = Date.now()): void {
    if (started !== this.generation || until <= now || this.maxEntries === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { until, ...who });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  forgetFamily(familyId: string): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (entry.familyId === familyId) this.entries.delete(key);
  }

  /** Every session of the user, and every session acting for or as them (impersonation). */
  forgetUser(userId: string): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (entry.userIds.includes(userId)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** This process's cache: revocations anywhere in the process reach it (see the note above). */
export const sessionCache = new SessionCache();
