import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { WorkflowHandle } from '@temporalio/client';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { eventTypeName, runReplayCheck } from '../../worker/replay';
import { parseReplayCheckArgs, UsageError } from '../../worker/replay-args';
import { getLeaseUpView } from '../../workflows/lease-up.messages';
import { eventually } from '../helpers/stack';
import { HISTORY_FIXTURE_KEY, startWorkflowEnv } from '../helpers/workflow-env';

const run = promisify(execFile);
const CASES = 3;

/** `npm run replay:check` as an operator runs it (the script's own command), with the test server's address. */
async function replayCheck(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'worker/replay-check.ts', '--', ...args], {
      env: { PATH: process.env.PATH, DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY },
      timeout: 170_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/**
 * The deploy gate. Lease-up cases left running on the test's Temporal dev server
 * (started and advanced by the real worker) replay through the unchanged code, and fail through a
 * deliberately changed workflow module, naming the workflow and the first event it disagrees with.
 */
describe('replay:check against a dev server holding running cases', () => {
  let env: Awaited<ReturnType<typeof startWorkflowEnv>>;
  const handles: WorkflowHandle[] = [];
  let query: string;

  beforeAll(async () => {
    env = await startWorkflowEnv();
    for (let i = 0; i < CASES; i++) {
      const input = await env.applicationInput();
      const handle = await env.client.workflow.start('leaseUpApplication', { workflowId: leaseUpWorkflowId(input.applicationId), taskQueue: env.taskQueue, args: [input] });
      handles.push(handle);
    }
    // Each case has run its first tasks (its log number is given by an activity) and is waiting for people.
    for (const handle of handles) await eventually(async () => (await handle.query(getLeaseUpView)).logNumber, 30_000);
    // Only this file's cases: other files run their own workflows (under other keys) on the same server.
    query = `TaskQueue = "${env.taskQueue}" AND ExecutionStatus = "Running"`;
    await eventually(async () => (await env.client.workflow.count(query)).count === CASES, 30_000);
  }, 120_000);
  afterAll(async () => {
    for (const handle of handles) await handle.terminate('replay-check test over').catch(() => undefined);
    await env?.close();
  });

  const address = () => inject('temporalAddress');

  it('the unchanged code replays every running case (and a sample of each type): exit 0 with counts per type', async () => {
    const all = await runReplayCheck({ ...parseReplayCheckArgs(['--address', address(), '--namespace', 'default', '--query', query, '--bundle', inject('workflowBundlePath')], { DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY }) });
    expect(all).toMatchObject({ listed: CASES, byType: { leaseUpApplication: { replayed: CASES, failed: 0 } }, failures: [], missing: 0 });

    const sampled = await replayCheck(['--address', address(), '--namespace', 'default', '--query', query, '--sample', '2', '--bundle', inject('workflowBundlePath')]);
    expect(sampled.code, sampled.out).toBe(0);
    expect(sampled.out).toMatch(/leaseUpApplication\s+2 replayed, all deterministic/);
    expect(sampled.out).toContain('RESULT: 2 workflow(s) replayed through this code');
  }, 180_000);

  it('a workflow changed without patched() fails: exit 1 naming the workflow, its type and the first nondeterministic event', async () => {
    const changed = await replayCheck(['--address', address(), '--namespace', 'default', '--query', query, '--workflows-path', 'tests/fixtures/replay-changed/workflows.ts']);
    expect(changed.code, changed.out).toBe(1);
    // The change adds a timer before the first command: the code disagrees with the first event the
    // real code recorded after its first workflow task.
    const history = await handles[0]!.fetchHistory();
    const events = history.events ?? [];
    const firstTaskDone = events.findIndex((e) => e.workflowTaskCompletedEventAttributes);
    const firstCommand = events[firstTaskDone + 1]!;
    for (const handle of handles) {
      expect(changed.out).toMatch(new RegExp(`FAILED leaseUpApplication workflow ${handle.workflowId} \\(run [0-9a-f-]+\\): first nondeterministic event ${firstCommand.eventId} \\(${eventTypeName(firstCommand.eventType)}\\)`));
    }
    // The real code's first command is the local activity issuing the case's log number, which the changed code no longer reaches first.
    expect(eventTypeName(firstCommand.eventType)).toBe('MarkerRecorded');
    expect(firstCommand.markerRecordedEventAttributes?.markerName).toBe('core_local_activity');
    expect(changed.out).toMatch(/Nondeterminism error: .*LocalActivity/);
    expect(changed.out).toMatch(/leaseUpApplication\s+3 replayed, 3 FAILED/);
    expect(changed.out).toContain('RESULT: 3 of 3 workflow(s) do NOT replay');

    // What `npm start` asks (infra/start.ts): the same verdict without looking for each event.
    const quick = await replayCheck(['--address', address(), '--namespace', 'default', '--query', query, '--workflows-path', 'tests/fixtures/replay-changed/workflows.ts', '--max-located', '0']);
    expect(quick.code, quick.out).toBe(1);
    expect(quick.out.match(/FAILED leaseUpApplication workflow .*: the SDK named no event/g)).toHaveLength(CASES);
    expect(quick.out).toContain('RESULT: 3 of 3 workflow(s) do NOT replay');
  }, 240_000);

  it('refuses a bad command line with the usage, before connecting', () => {
    expect(() => parseReplayCheckArgs(['--address', 'nowhere'], { DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY })).toThrow(UsageError);
    expect(() => parseReplayCheckArgs(['--address', 'localhost:7233', '--sample', '0'], { DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY })).toThrow(/--sample/);
    expect(() => parseReplayCheckArgs(['--address', 'localhost:7233'], {})).toThrow(/DATA_ENCRYPTION_KEY/);
    expect(() => parseReplayCheckArgs(['--address', 'localhost:7233', '--tls-cert', 'c.pem'], { DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY })).toThrow(/go together/);
    expect(() => parseReplayCheckArgs(['--bogus'], { DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY })).toThrow(UsageError);
    expect(() => parseReplayCheckArgs(['--address', 'localhost:7233', '--max-located', '-1'], { DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY })).toThrow(/--max-located/);
    const parsed = parseReplayCheckArgs(['--', '--namespace', 'housing-portal'], { TEMPORAL_ADDRESS: 'temporal:7233', DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY, WORKER_BUNDLE_PATH: '/b.js' });
    expect(parsed).toMatchObject({ address: 'temporal:7233', namespace: 'housing-portal', query: 'ExecutionStatus = "Running"', bundlePath: '/b.js', samplePerType: undefined, maxLocated: 20 });
  });
});
