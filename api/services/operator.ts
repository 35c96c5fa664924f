import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import type { temporal as protoTypes } from '@temporalio/proto';
import { sql } from 'kysely';
import {
  WORKFLOW_CASE_KINDS,
  redactPersonal,
  type OperatorAuditAction,
  type OperatorAuditEntry,
  type OperatorCaseSummary,
  type OperatorSearchQuery,
  type Page,
  type StuckReason,
  type WorkflowCaseKind,
} from '../../domain';
import { DAY } from '../../domain/time';
import type { Db } from '../../infra/db/database';
import { CASE_SEARCH_KEYS } from '../../workflows/case/search';
import { HttpError, conflict, notFound } from '../errors';
import { fetchHistory, isNotFound, isoOf, proto, type OperatorDeps } from './operator-temporal';

const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** At most this many cases come back from one search (a household has a handful). */
const SEARCH_LIMIT = 50;

type RawExecution = protoTypes.api.workflow.v1.IWorkflowExecutionInfo;

const kindOf = (workflowId: string): WorkflowCaseKind | null => {
  const prefix = workflowId.split('/')[0] as WorkflowCaseKind;
  return WORKFLOW_CASE_KINDS.includes(prefix) ? prefix : null;
};
const statusName = (status: number | null | undefined) => (proto.api.enums.v1.WorkflowExecutionStatus[status ?? 0] ?? 'UNSPECIFIED').replace('WORKFLOW_EXECUTION_STATUS_', '');

function summaryOf(info: RawExecution): OperatorCaseSummary {
  const workflowId = info.execution?.workflowId ?? '';
  const attrs = decodeTypedSearchAttributes(info.searchAttributes?.indexedFields);
  const changedAt = attrs.get(CASE_SEARCH_KEYS.CaseChangedAt);
  return {
    workflowId,
    kind: (attrs.get(CASE_SEARCH_KEYS.CaseKind) as WorkflowCaseKind | undefined) ?? kindOf(workflowId),
    execution: statusName(info.status),
    status: attrs.get(CASE_SEARCH_KEYS.CaseStatus) ?? null,
    step: attrs.get(CASE_SEARCH_KEYS.CaseStep) ?? null,
    logNumber: attrs.get(CASE_SEARCH_KEYS.CaseLogNumber) ?? null,
    overdue: attrs.get(CASE_SEARCH_KEYS.CaseOverdue) ?? false,
    changedAt: changedAt ? new Date(changedAt).toISOString() : null,
    startedAt: isoOf(info.startTime),
  };
}

const invalidCursor = () => new HttpError(400, 'invalidCursor');

const cursorKeys = new Map<string, Buffer>();
function cursorKey(dataKey: string): Buffer {
  let key = cursorKeys.get(dataKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', Buffer.from(dataKey, 'base64'), Buffer.alloc(0), 'portal operator cursors v1', 32));
    cursorKeys.set(dataKey, key);
  }
  return key;
}
const cursorMac = (dataKey: string, list: string, token: Buffer) => createHmac('sha256', cursorKey(dataKey)).update(list).update('\0').update(token).digest().subarray(0, 16);

/**
 * Temporal's page token is opaque and Temporal answers one it did not make with a fault that the
 * client retries (not an invalid argument), so the cursor handed out is the token with a MAC over
 * it and the list it pages: any other cursor, or one of another list, is refused here with a 400.
 */
function sealCursor(dataKey: string, list: string, token: Uint8Array): string {
  const bytes = Buffer.from(token);
  return Buffer.concat([bytes, cursorMac(dataKey, list, bytes)]).toString('base64url');
}

function openCursor(dataKey: string, list: string, cursor: string): Buffer {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  const sealed = Buffer.from(cursor, 'base64url');
  if (sealed.length <= 16) throw invalidCursor();
  const token = sealed.subarray(0, -16);
  if (!timingSafeEqual(sealed.subarray(-16), cursorMac(dataKey, list, token))) throw invalidCursor();
  return token;
}

/** One page of a visibility list query; the cursor is Temporal's page token, sealed (above). */
async function listPage(
  { temporal, taskQueue, dataKey }: Pick<OperatorDeps, 'temporal' | 'taskQueue' | 'dataKey'>,
  query: string,
  limit: number,
  paging?: { list: string; cursor?: string | undefined },
) {
  const fullQuery = `TaskQueue = ${quoted(taskQueue)} AND ${query}`;
  // The cursor is bound to the list it pages (e.g. the stuck list's reason and days), not to the
  // query's text, which for an idle list names a time that moves between pages.
  const list = `${taskQueue}\n${paging?.list ?? fullQuery}`;
  const token = paging?.cursor ? openCursor(dataKey, list, paging.cursor) : null;
  const response = await temporal.workflowService.listWorkflowExecutions({
    namespace: temporal.options.namespace,
    query: fullQuery,
    pageSize: limit,
    ...(token ? { nextPageToken: token } : {}),
  });
  const next = response.nextPageToken && response.nextPageToken.length > 0 ? sealCursor(dataKey, list, response.nextPageToken) : null;
  return { executions: response.executions ?? [], nextCursor: next };
}

async function describeRaw(temporal: Client, workflowId: string) {
  try {
    return await temporal.workflowService.describeWorkflowExecution({ namespace: temporal.options.namespace, execution: { workflowId } });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The workflow IDs of every case of the households and users named (the read models, PostgreSQL). */
async function caseIdsOf(db: Db, householdIds: string[], userIds: string[]): Promise<string[]> {
  const ids: string[] = [];
  if (householdIds.length > 0) {
    for (const table of ['applications', 'recertification_cases', 'relocation_cases', 'support_tickets'] as const) {
      const rows = await db.selectFrom(table).select('workflow_id').where('household_id', 'in', householdIds).limit(SEARCH_LIMIT).execute();
      ids.push(...rows.map((r) => r.workflow_id));
    }
  }
  if (userIds.length > 0) {
    const grants = await db.selectFrom('access_grants').select('id').where('user_id', 'in', userIds).where('granted_at', 'is not', null).limit(SEARCH_LIMIT).execute();
    ids.push(...grants.map((g) => `access-grant/${g.id}`));
    const tickets = await db.selectFrom('support_tickets').select('workflow_id').where('requester_user_id', 'in', userIds).limit(SEARCH_LIMIT).execute();
    ids.push(...tickets.map((t) => t.workflow_id));
  }
  return [...new Set(ids)].slice(0, SEARCH_LIMIT);
}

/**
 * Finds cases across kinds: a log number through the search attributes (a visibility query), an
 * email or a household through the read models, whose workflow IDs are then described.
 */
export async function searchCases(deps: OperatorDeps, query: OperatorSearchQuery): Promise<OperatorCaseSummary[]> {
  const { db, temporal } = deps;
  if (query.logNumber) {
    // The pattern admits only letters, digits and a dash: safe inside the quoted query.
    const { executions } = await listPage(deps, `CaseLogNumber = '${query.logNumber}'`, SEARCH_LIMIT);
    return executions.map(summaryOf);
  }
  let householdIds: string[] = [];
  let userIds: string[] = [];
  if (query.email) {
    const users = await db.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', query.email).execute();
    userIds = users.map((u) => u.id);
    if (userIds.length > 0) householdIds = (await db.selectFrom('households').select('id').where('head_user_id', 'in', userIds).execute()).map((h) => h.id);
  } else if (query.householdId) {
    householdIds = [query.householdId];
    const head = await db.selectFrom('households').select('head_user_id').where('id', '=', query.householdId).executeTakeFirst();
    if (head?.head_user_id) userIds = [head.head_user_id];
  }
  const workflowIds = await caseIdsOf(db, householdIds, userIds);
  const described = await Promise.all(workflowIds.map((id) => describeRaw(temporal, id)));
  return described.flatMap((d) => (d?.workflowExecutionInfo ? [summaryOf(d.workflowExecutionInfo)] : []));
}

const RUNNING_CASES = `ExecutionStatus = 'Running' AND CaseKind IN (${WORKFLOW_CASE_KINDS.map((k) => `'${k}'`).join(', ')})`;

/**
 * Stuck cases, one reason at a time: a task overdue (the overdue flag), no change for `days` days
 * (the last-change attribute), or an activity failing (a pending activity past its first attempt,
 * read by describing the running cases of the page).
 */
export async function stuckCases(
  deps: OperatorDeps,
  options: { reason: StuckReason; days: number; limit: number; cursor?: string },
  now: Date,
): Promise<Page<OperatorCaseSummary>> {
  if (options.reason === 'overdue' || options.reason === 'idle') {
    const since = new Date(now.getTime() - options.days * DAY).toISOString();
    const query = options.reason === 'overdue' ? `${RUNNING_CASES} AND CaseOverdue = true` : `${RUNNING_CASES} AND CaseChangedAt < '${since}'`;
    const page = await listPage(deps, query, options.limit, { list: `stuck:${options.reason}:${options.days}`, cursor: options.cursor });
    return { items: page.executions.map(summaryOf), nextCursor: page.nextCursor };
  }
  const page = await listPage(deps, RUNNING_CASES, options.limit, { list: 'stuck:failing', cursor: options.cursor });
  const items: OperatorCaseSummary[] = [];
  for (const info of page.executions) {
    const described = await describeRaw(deps.temporal, info.execution?.workflowId ?? '');
    const failing = (described?.pendingActivities ?? []).find((a) => (a.attempt ?? 1) > 1);
    if (!failing) continue;
    const lastFailure = failing.lastFailure?.message ?? null;
    items.push({
      ...summaryOf(info),
      failing: { activityType: failing.activityType?.name ?? '', attempt: failing.attempt ?? 0, lastFailure: lastFailure ? String(redactPersonal(lastFailure)).slice(0, 300) : null },
    });
  }
  return { items, nextCursor: page.nextCursor };
}

/** The audit rows of codec sessions and codec decodes name no case (the codec is not told which). */
export const CODEC_AUDIT_WORKFLOW_ID = '(codec)';

/** The reason the Admin gave for this sign-in's codec session, or null when none was given. */
export async function codecReason(db: Db, actorUserId: string, familyId: string | null | undefined): Promise<string | null> {
  if (!familyId) return null;
  const row = await db
    .selectFrom('operator_audit')
    .select('reason')
    .where('actor_user_id', '=', actorUserId)
    .where('workflow_id', '=', CODEC_AUDIT_WORKFLOW_ID)
    .where('action', '=', 'reveal')
    .where(sql<boolean>`detail->>'what' = 'codec session' and detail->>'family' = ${familyId}`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.reason ?? null;
}

export async function audit(db: Db, entry: { actorUserId: string; workflowId: string; action: OperatorAuditAction; reason: string; detail?: Record<string, string | number | null> }) {
  await db
    .insertInto('operator_audit')
    .values({ actor_user_id: entry.actorUserId, workflow_id: entry.workflowId, action: entry.action, reason: entry.reason, detail: JSON.stringify(entry.detail ?? {}) })
    .execute();
}

/** The audit log, newest first, paged by id. */
export async function auditLog(db: Db, query: { workflowId?: string; limit: number; cursor?: string }): Promise<Page<OperatorAuditEntry>> {
  if (query.cursor !== undefined && query.cursor !== '' && !/^\d{1,18}$/.test(query.cursor)) throw invalidCursor();
  const before = query.cursor || null;
  let q = db
    .selectFrom('operator_audit as a')
    .innerJoin('users as u', 'u.id', 'a.actor_user_id')
    .select(['a.id', 'a.created_at', 'a.actor_user_id', 'u.username', 'a.workflow_id', 'a.action', 'a.reason', 'a.detail'])
    .orderBy('a.id', 'desc')
    .limit(query.limit + 1);
  if (query.workflowId) q = q.where('a.workflow_id', '=', query.workflowId);
  if (before) q = q.where('a.id', '<', before);
  const rows = await q.execute();
  const items = rows.slice(0, query.limit).map((r) => ({
    id: String(r.id),
    at: new Date(r.created_at).toISOString(),
    actorUserId: r.actor_user_id,
    actorUsername: r.username,
    workflowId: r.workflow_id,
    action: r.action,
    reason: r.reason,
    detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<string, string | number | null>,
  }));
  return { items, nextCursor: rows.length > query.limit ? items.at(-1)!.id : null };
}

/** Completed workflow tasks of the current run (the points a reset may go back to), newest last. */
async function resetPoints(temporal: Client, workflowId: string): Promise<number[]> {
  const history = await fetchHistory(temporal, workflowId);
  return (history.events ?? []).filter((e) => e.eventType === proto.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED).map((e) => Number(e.eventId));
}

async function resetTo(temporal: Client, workflowId: string, eventId: number, auditNote: string): Promise<string> {
  const response: protoTypes.api.workflowservice.v1.IResetWorkflowExecutionResponse = await temporal.workflowService.resetWorkflowExecution({
    namespace: temporal.options.namespace,
    workflowExecution: { workflowId },
    // The reason in Temporal's history names the audit entry only (the operator's words stay in the audit log).
    reason: auditNote,
    // protobufjs takes a number for an int64 field.
    workflowTaskFinishEventId: eventId as never,
    requestId: randomUUID(),
    resetReapplyType: proto.api.enums.v1.ResetReapplyType.RESET_REAPPLY_TYPE_ALL_ELIGIBLE,
  });
  return response.runId ?? '';
}

async function requireRunning(temporal: Client, workflowId: string) {
  const described = await describeRaw(temporal, workflowId);
  if (!described) throw notFound();
  if (described.workflowExecutionInfo?.status !== proto.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
    throw conflict('actionNotAllowedNow');
  }
}

/**
 * Retry: the case goes back to its last completed workflow task, so what it was waiting on (a
 * failing activity) is scheduled afresh from its first attempt; signals and updates since are re-applied.
 */
export async function retryCase({ temporal }: OperatorDeps, workflowId: string): Promise<{ runId: string; eventId: number }> {
  await requireRunning(temporal, workflowId);
  const points = await resetPoints(temporal, workflowId);
  const eventId = points.at(-1);
  if (!eventId) throw conflict('actionNotAllowedNow');
  return { runId: await resetTo(temporal, workflowId, eventId, 'operator retry (see the portal audit log)'), eventId };
}

export async function resetCase({ temporal }: OperatorDeps, workflowId: string, eventId: number): Promise<{ runId: string; eventId: number }> {
  const points = await resetPoints(temporal, workflowId);
  if (!points.includes(eventId)) throw new HttpError(400, 'validation', 'Choose a completed workflow task of this case to reset to');
  return { runId: await resetTo(temporal, workflowId, eventId, 'operator reset (see the portal audit log)'), eventId };
}

export async function terminateCase({ temporal }: OperatorDeps, workflowId: string): Promise<void> {
  await requireRunning(temporal, workflowId);
  await temporal.workflow.getHandle(workflowId).terminate('operator terminate (see the portal audit log)');
}

