import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { CASE_SEARCH_ATTRIBUTES, initialLeaseUpState, leaseUpSearchFacts, leaseUpView } from '../../domain';
import { leaseUpWorkflowId } from '../../infra/temporal/ids';
import { getLeaseUpView, leaseUpUpdates } from '../../workflows/lease-up.messages';
import { CASE_SEARCH_KEYS, caseStartSearchAttributes } from '../../workflows/case/search';
import { recordHistory } from '../helpers/histories';
import { eventually } from '../helpers/stack';
import { startWorkflowEnv } from '../helpers/workflow-env';

/**
 * Search attributes of the case kit on the shared dev server, which `npm start`'s flags and the test
 * setup register: a case is found by its log number through a visibility query, and its attributes
 * follow its changes. The runs recorded here (RECORD_HISTORIES=1) are replayed by
 * tests/workflows/replay.test.ts.
 */
describe('case search attributes', () => {
  let env: Awaited<ReturnType<typeof startWorkflowEnv>>;
  beforeAll(async () => {
    env = await startWorkflowEnv();
  });
  afterAll(() => env?.close());

  const list = async (query: string) => {
    const found: string[] = [];
    for await (const w of env.client.workflow.list({ query: `TaskQueue = '${env.taskQueue}' AND ${query}` })) found.push(w.workflowId);
    return found;
  };

  it('finds a lease-up case by its log number, and its status and step follow the case', async () => {
    const input = await env.applicationInput();
    const handle: WorkflowHandle = await env.client.workflow.start('leaseUpApplication', { workflowId: leaseUpWorkflowId(input.applicationId), taskQueue: env.taskQueue, args: [input] });
    const logNumber = await eventually(async () => (await handle.query(getLeaseUpView)).logNumber);
    // Visibility is written after the workflow task: poll until the list query sees it.
    const found = await eventually(async () => {
      const ids = await list(`CaseLogNumber = '${logNumber}'`);
      return ids.length > 0 ? ids : null;
    });
    expect(found).toEqual([handle.workflowId]);

    const attrs = (await handle.describe()).typedSearchAttributes;
    expect(attrs.get(CASE_SEARCH_KEYS.CaseKind)).toBe('lease-up');
    expect(attrs.get(CASE_SEARCH_KEYS.CaseLogNumber)).toBe(logNumber);
    expect(attrs.get(CASE_SEARCH_KEYS.CaseOpportunityId)).toBe(input.opportunityId);
    expect(attrs.get(CASE_SEARCH_KEYS.CaseOrganizationId)).toBe(input.organizationId);
    const view = await handle.query(getLeaseUpView);
    expect(attrs.get(CASE_SEARCH_KEYS.CaseStatus)).toBe(view.status);
    expect(attrs.get(CASE_SEARCH_KEYS.CaseStep)).toBe(view.currentStep);
    expect(attrs.get(CASE_SEARCH_KEYS.CaseOverdue)).toBe(false);
    expect(attrs.get(CASE_SEARCH_KEYS.CaseChangedAt)).toBeInstanceOf(Date);

    // The applicant withdraws: the status follows, and the kind and status find it among finished cases.
    await handle.executeUpdate(leaseUpUpdates.Withdraw!, { args: [{ actor: { userId: input.applicantUserId, role: 'applicant', impersonatedBy: null } } as never] });
    await handle.result();
    await eventually(async () => (await list(`CaseKind = 'lease-up' AND CaseStatus = 'withdrawn' AND CaseLogNumber = '${logNumber}'`)).length === 1);

    // Only the kit's attribute names.
    expect(Object.keys((await handle.describe()).searchAttributes).filter((k) => k.startsWith('Case')).sort()).toEqual(
      Object.keys(CASE_SEARCH_ATTRIBUTES).filter((k) => k !== 'CaseOpportunityId' || input.opportunityId).sort(),
    );
    // One patch marker, the projection after the answer (workflows/lease-up.ts), recorded once at the
    // first projection; each marker also upserts TemporalChangeVersion, so the retired patches must
    // stay gone. The case's attributes are upserted once at the start, after its change (the log number issued).
    const events = (await handle.fetchHistory()).events ?? [];
    const markers = events.flatMap((e) => e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads ?? []);
    expect(markers).toHaveLength(1);
    const caseUpserts = events.flatMap((e, i) => (Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}).some((k) => k.startsWith('Case')) ? [i] : []));
    const firstAction = events.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
    expect(firstAction).toBeGreaterThan(0);
    expect(caseUpserts.filter((i) => i < firstAction)).toHaveLength(1);
    await recordHistory('lease-up-search-attributes', handle);
  });

  it('a case the API took (its log number, start time, first view and search attributes given) records nothing in its first task and projects from its first action', async () => {
    const base = await env.applicationInput();
    const startedAt = '2026-03-02T10:15:00.000Z';
    const input = { ...base, logNumber: `LU-T${randomUUID().slice(0, 5)}`, startedAt };
    // As the API starts it (api/services/lease-up.ts): the first state's attributes with the start.
    const first = leaseUpView(initialLeaseUpState(input, startedAt), Date.parse(startedAt));
    const handle: WorkflowHandle = await env.client.workflow.start('leaseUpApplication', {
      workflowId: leaseUpWorkflowId(input.applicationId),
      taskQueue: env.taskQueue,
      args: [input],
      typedSearchAttributes: caseStartSearchAttributes(leaseUpSearchFacts(first), startedAt),
    });
    const view = await eventually(async () => handle.query(getLeaseUpView));
    // The state the API projected: version 1, dated when the application was taken.
    expect(view).toMatchObject({ version: 1, logNumber: input.logNumber, appliedAt: startedAt, updatedAt: startedAt });
    expect(view).toEqual(JSON.parse(JSON.stringify(first)));
    expect(await eventually(async () => (await list(`CaseLogNumber = '${input.logNumber}' AND CaseStatus = 'in_review'`)).length === 1)).toBe(true);
    // Nothing projected by the run yet (the API's projection is not part of this test).
    expect(await env.db.selectFrom('applications').select('id').where('id', '=', input.applicationId).executeTakeFirst()).toBeUndefined();

    await handle.executeUpdate(leaseUpUpdates.Withdraw!, { args: [{ actor: { userId: input.applicantUserId, role: 'applicant', impersonatedBy: null } } as never] });
    await handle.result();
    const row = await env.db.selectFrom('applications').select(['state_version', 'status', 'log_number']).where('id', '=', input.applicationId).executeTakeFirstOrThrow();
    expect(row).toEqual({ state_version: 2, status: 'withdrawn', log_number: input.logNumber });
    await eventually(async () => (await list(`CaseStatus = 'withdrawn' AND CaseLogNumber = '${input.logNumber}'`)).length === 1);
    const events = (await handle.fetchHistory()).events ?? [];
    const firstAction = events.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
    // Until the first action: the start and its workflow task, then the task that took the action;
    // no marker (patch or local activity), no upsert, no activity.
    const beforeAction = events.slice(0, firstAction);
    expect(beforeAction.filter((e) => e.markerRecordedEventAttributes)).toHaveLength(0);
    expect(beforeAction.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes)).toHaveLength(0);
    expect(beforeAction.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(0);
    expect(beforeAction.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(2);
    await recordHistory('lease-up-taken', handle);
  });

  it('lists nothing for a log number no case has', async () => {
    expect(await list(`CaseLogNumber = 'LU-${randomUUID().slice(0, 6)}'`)).toEqual([]);
  });
});
