import { describe, expect, it } from 'vitest';
import { MIN_REFRESH_WAIT_MS, REFRESH_BEFORE_EXPIRY_MS, refreshDelay } from '../../web/src/lib/api-client';

/** Spec section 4 token refresh: 5 minutes before expiry; skipped under 30 s; at once when due. */
describe('token refresh scheduling', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('waits until 5 minutes before the access token expires', () => {
    expect(REFRESH_BEFORE_EXPIRY_MS).toBe(300_000);
    expect(refreshDelay(at(15 * 60_000), now)).toBe(10 * 60_000);
  });

  it('skips the scheduled refresh when the wait would be under 30 seconds', () => {
    expect(MIN_REFRESH_WAIT_MS).toBe(30_000);
    expect(refreshDelay(at(REFRESH_BEFORE_EXPIRY_MS + 29_000), now)).toBeNull();
    expect(refreshDelay(at(REFRESH_BEFORE_EXPIRY_MS + 30_000), now)).toBe(30_000);
  });

  it('refreshes at once when already due or the expiry is unreadable', () => {
    expect(refreshDelay(at(REFRESH_BEFORE_EXPIRY_MS), now)).toBe('now');
    expect(refreshDelay(at(-60_000), now)).toBe('now');
    expect(refreshDelay('not a date', now)).toBe('now');
  });
});
