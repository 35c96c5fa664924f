import { describe, expect, it } from 'vitest';
import { SessionCache } from '../../api/services/session-cache';
import { loadConfig } from '../../infra/config';
import { workerSizing } from '../../worker/sizing';

const MiB = 1024 * 1024;
const config = (env: Record<string, string> = {}) =>
  loadConfig({ DATABASE_URL: 'postgres://u:p@localhost:5432/db', TEMPORAL_ADDRESS: 'localhost:7233', JWT_SECRET: 'x'.repeat(32), DATA_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'), ...env });

describe('worker sizing', () => {
  it('sizes the sticky cache from the heap the process has, and the workflow slots to the cache', () => {
    // The production default: 512 MiB of old space, about 560 MiB as V8 reports the limit.
    const sized = workerSizing(config(), 560 * MiB);
    expect(sized.maxCachedWorkflows).toBe(Math.floor(((560 - 128) * 1024) / 256));
    // Workflow tasks and local activities on fixed slots (a saturated CPU must not starve them);
    // activities by memory, a quarter of them always given.
    expect(sized.tuner).toEqual({
      workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: 8 },
      localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: 16 },
      activityTaskSlotSupplier: { type: 'resource-based', tunerOptions: { targetMemoryUsage: 0.8, targetCpuUsage: 1 }, minimumSlots: 4, maximumSlots: 16 },
      nexusTaskSlotSupplier: { type: 'fixed-size', numSlots: 1 },
    });
    // Half the workflow task pollers on the normal queue, where new cases wait: one per two slots.
    expect(sized.workflowTaskPollerBehavior).toEqual({ type: 'simple-maximum', maximum: 4 });
    expect(sized.nonStickyToStickyPollRatio).toBe(0.5);
    const small = workerSizing(config({ WORKER_CACHED_WORKFLOW_KB: '1024', WORKER_WORKFLOW_TASK_SLOTS: '64' }), 160 * MiB);
    expect(small.maxCachedWorkflows).toBe(32);
    // Never more workflow tasks at once than cached workflows (one would evict another).
    expect(small.tuner).toMatchObject({ workflowTaskSlotSupplier: { numSlots: 32 } });
    expect(small.workflowTaskPollerBehavior).toEqual({ type: 'simple-maximum', maximum: 16 });
    expect(workerSizing(config({ WORKER_MAX_CACHED_WORKFLOWS: '3' }), 560 * MiB).tuner).toMatchObject({ workflowTaskSlotSupplier: { numSlots: 3 } });
    expect(workerSizing(config({ WORKER_ACTIVITY_TASK_SLOTS: '40' }), 560 * MiB).tuner).toMatchObject({
      activityTaskSlotSupplier: { minimumSlots: 10, maximumSlots: 40 },
      localActivityTaskSlotSupplier: { numSlots: 40 },
    });
    // A heap smaller than the reserve still runs (the SDK's minimum), and the variable wins when set.
    expect(workerSizing(config(), 64 * MiB).maxCachedWorkflows).toBe(2);
    expect(workerSizing(config({ WORKER_MAX_CACHED_WORKFLOWS: '5000', WORKER_TARGET_MEMORY_USAGE: '0.7' }), 560 * MiB)).toMatchObject({
      maxCachedWorkflows: 5000,
      tuner: { activityTaskSlotSupplier: { tunerOptions: { targetMemoryUsage: 0.7 } } },
    });
  });

  it('refuses a target memory share outside 0.1-0.95 with one line naming the variable', () => {
    expect(() => config({ WORKER_TARGET_MEMORY_USAGE: '1.5' })).toThrow(/WORKER_TARGET_MEMORY_USAGE/);
  });
});

describe('the session check cache', () => {
  const who = { userIds: ['u1'], familyId: 'f1' };
  it('answers live until the entry runs out, and keeps at most its size, least recently used out first', () => {
    const cache = new SessionCache(2);
    const a = SessionCache.key('u1', 'f1', null);
    cache.remember(a, cache.begin(), 2_000, who, 1_000);
    expect(cache.isLive(a, 1_500)).toBe(true);
    expect(cache.isLive(a, 2_000)).toBe(false);
    cache.remember('a', cache.begin(), 9_000, who, 1_000);
    cache.remember('b', cache.begin(), 9_000, who, 1_000);
    expect(cache.isLive('a', 1_000)).toBe(true); // a is now the most recently used
    cache.remember('c', cache.begin(), 9_000, who, 1_000);
    expect(cache.size).toBe(2);
    expect(cache.isLive('b', 1_000)).toBe(false);
    expect(cache.isLive('a', 1_000)).toBe(true);
  });

  it('forgets a family or a user at once, and a check that began before the revocation is not kept', () => {
    const cache = new SessionCache();
    cache.remember('k1', cache.begin(), 9_000, { userIds: ['u1'], familyId: 'f1' }, 0);
    cache.remember('k2', cache.begin(), 9_000, { userIds: ['u2', 'u1'], familyId: 'f2' }, 0);
    cache.remember('k3', cache.begin(), 9_000, { userIds: ['u3'], familyId: 'f3' }, 0);
    cache.forgetFamily('f3');
    expect(cache.isLive('k3', 0)).toBe(false);
    // u1 signed in as themself (k1) and acting for u2 (k2): both end.
    cache.forgetUser('u1');
    expect([cache.isLive('k1', 0), cache.isLive('k2', 0)]).toEqual([false, false]);
    const started = cache.begin();
    cache.forgetFamily('f9');
    cache.remember('k4', started, 9_000, { userIds: ['u4'], familyId: 'f9' }, 0);
    expect(cache.isLive('k4', 0)).toBe(false);
  });
});
