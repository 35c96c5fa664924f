import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { REDACTED, redactPersonal, type OperatorHistory } from '../../domain';
import { caseHistory, encodedHistory } from '../../api/services/operator-history';
import type { OperatorDeps } from '../../api/services/operator-temporal';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };

/**
 * Cases carry search attributes and no personal data in
 * them, their memo or their workflow IDs; an Admin finds a case by log number (visibility), by email
 * or household (read model), reads its history redacted, reveals it with a reason (audited), exports
 * it, and retries, resets or terminates it with a reason (audited). Everyone else is refused.
 */
describe.sequential('operator console API', () => {
  let stack: Stack;
  let admin: Auth;
  let manager: Auth;
  let applicant: Auth;
  let applicationId: string;
  let logNumber: string;
  let ticketId: string;
  let relocationId: string;
  let tenantName: string;
  const SSN = '219-09-9999';

  beforeAll(async () => {
    stack = await startStack();
    [admin, manager, applicant] = await Promise.all([signIn(stack.app, 'Admin'), signIn(stack.app, 'Manager'), signIn(stack.app, 'User')]);
  });
  afterAll(() => stack?.close());

  const call = (method: 'GET' | 'POST', url: string, who?: Auth, payload?: object) =>
    stack.app.inject({ method, url, ...(who ? { headers: { authorization: who.authorization } } : {}), ...(payload ? { payload } : {}) });

  it('starts cases carrying personal data: a lease-up application and a support ticket', async () => {
    const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('kind', '=', 'rental').orderBy('name').executeTakeFirstOrThrow();
    const applied = await call('POST', '/api/LeaseUpApplication/apply', applicant, { opportunityId: opportunity.id, householdSize: 2, householdIncome: 52_345, agreeToTerms: true });
    expect(applied.statusCode).toBe(201);
    applicationId = applied.json().data.applicationId;
    logNumber = await eventually(async () => (await stack.db.selectFrom('applications').select('log_number').where('id', '=', applicationId).executeTakeFirst())?.log_number);

    const me = await stack.db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', applicant.userId).executeTakeFirstOrThrow();
    const ticket = await call('POST', '/api/SupportTicket/CreateSupportTicket', applicant, {
      category: 'account',
      subject: `Help for ${me.first_name} ${me.last_name}`,
      message: `My SSN is ${SSN}, my email ${me.email}, income 52345 a year.`,
    });
    expect(ticket.statusCode).toBe(201);
    ticketId = ticket.json().data.ticketId ?? ticket.json().data.id;
    expect(ticketId).toMatch(/^[0-9a-f-]{36}$/);

    // A relocation whose reason names the tenant (free text a manager wrote).
    const household = (await call('GET', '/api/Relocation/manager/households', manager)).json().data[0];
    const tenant = await stack.db.selectFrom('households as h').innerJoin('users as u', 'u.id', 'h.head_user_id').select(['u.first_name', 'u.last_name']).where('h.id', '=', household.householdId).executeTakeFirstOrThrow();
    tenantName = `${tenant.first_name} ${tenant.last_name}`;
    const started = await call('POST', '/api/Relocation/manager/start', manager, { householdId: household.householdId, reason: `Mold in the flat of ${tenantName}` });
    expect(started.statusCode).toBe(201);
    relocationId = started.json().data.relocationId;
  });

  it('finds a case by its log number through the search attributes', async () => {
    const found = await eventually(async () => {
      const res = await call('GET', `/api/Operator/cases?logNumber=${logNumber.toLowerCase()}`, admin);
      expect(res.statusCode).toBe(200);
      return res.json().data.length > 0 ? res.json().data : null;
    });
    expect(found).toEqual([
      expect.objectContaining({ workflowId: `lease-up/${applicationId}`, kind: 'lease-up', logNumber, execution: 'RUNNING', overdue: false, status: expect.any(String), step: expect.any(String) }),
    ]);
    expect(Date.parse(found[0].changedAt)).not.toBeNaN();
  });

  it('keeps personal data out of every search attribute, memo and workflow ID', async () => {
    const me = await stack.db.selectFrom('users').select(['email', 'first_name', 'last_name', 'username']).where('id', '=', applicant.userId).executeTakeFirstOrThrow();
    const members = await stack.db.selectFrom('household_members as m').innerJoin('households as h', 'h.id', 'm.household_id').select('m.full_name').where('h.head_user_id', '=', applicant.userId).execute();
    const personal = [SSN, SSN.replace(/-/g, ''), me.email, me.first_name, me.last_name, ...members.map((m) => m.full_name), '52345', '52,345', tenantName, 'Mold'].filter((v): v is string => Boolean(v));
    for (const workflowId of [`lease-up/${applicationId}`, `support-ticket/${ticketId}`, `relocation/${relocationId}`]) {
      const handle = stack.temporal.workflow.getHandle(workflowId);
      // The search attributes are set in the case's first workflow task.
      const description = await eventually(async () => {
        const d = await handle.describe();
        return Object.keys(d.searchAttributes).includes('CaseKind') ? d : null;
      });
      const raw = description.raw.workflowExecutionInfo;
      const visible = JSON.stringify({
        workflowId: description.workflowId,
        searchAttributes: description.searchAttributes,
        typed: description.typedSearchAttributes.getAll(),
        memo: description.memo ?? null,
        rawSearchAttributes: Object.fromEntries(Object.entries(raw?.searchAttributes?.indexedFields ?? {}).map(([k, p]) => [k, Buffer.from(p.data ?? []).toString()])),
        rawMemo: Object.fromEntries(Object.entries(raw?.memo?.fields ?? {}).map(([k, p]) => [k, Buffer.from(p.data ?? []).toString()])),
      });
      expect(visible).toContain('CaseKind');
      for (const value of personal) expect(visible.toLowerCase(), `${workflowId} shows ${value}`).not.toContain(value.toLowerCase());
    }
  });

  it('finds cases by email and by household through the read model', async () => {
    const me = await stack.db.selectFrom('users').select('email').where('id', '=', applicant.userId).executeTakeFirstOrThrow();
    const byEmail = await call('GET', `/api/Operator/cases?email=${encodeURIComponent(me.email.toUpperCase())}`, admin);
    expect(byEmail.statusCode).toBe(200);
    const ids = byEmail.json().data.map((c: { workflowId: string }) => c.workflowId);
    expect(ids).toEqual(expect.arrayContaining([`lease-up/${applicationId}`, `support-ticket/${ticketId}`]));
    const household = await stack.db.selectFrom('applications').select('household_id').where('id', '=', applicationId).executeTakeFirstOrThrow();
    const byHousehold = await call('GET', `/api/Operator/cases?householdId=${household.household_id}`, admin);
    expect(byHousehold.json().data.map((c: { workflowId: string }) => c.workflowId)).toContain(`lease-up/${applicationId}`);
    expect((await call('GET', `/api/Operator/cases?householdId=${randomUUID()}`, admin)).json().data).toEqual([]);
  });

  it('shows a history redacted, and reveals it only with a reason, which is audited', async () => {
    const res = await call('GET', `/api/Operator/cases/support-ticket/${ticketId}/history`, admin);
    expect(res.statusCode).toBe(200);
    const history: OperatorHistory = res.json().data;
    expect(history.redacted).toBe(true);
    const started = history.events[0]!;
    expect(started).toMatchObject({ eventId: 1, type: 'WORKFLOW_EXECUTION_STARTED', name: 'supportTicket' });
    const text = JSON.stringify(history);
    expect(text).not.toContain(SSN);
    expect(text).toContain(REDACTED);
    expect(history.resetPoints.length).toBeGreaterThan(0);
    expect(history.events.some((e) => e.type === 'ACTIVITY_TASK_SCHEDULED' && e.name === 'projectSupportTicket')).toBe(true);

    expect((await call('POST', `/api/Operator/cases/support-ticket/${ticketId}/history/reveal`, admin, {})).statusCode).toBe(400);
    expect((await call('POST', `/api/Operator/cases/support-ticket/${ticketId}/history/reveal`, admin, { reason: 'no' })).statusCode).toBe(400);
    const revealed = await call('POST', `/api/Operator/cases/support-ticket/${ticketId}/history/reveal`, admin, { reason: 'Ticket 42: requester says the thread is lost' });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.json().data.redacted).toBe(false);
    expect(JSON.stringify(revealed.json().data)).toContain(SSN);

    const log = await call('GET', `/api/Operator/audit?workflowId=${encodeURIComponent(`support-ticket/${ticketId}`)}`, admin);
    expect(log.json().data.items).toEqual([
      expect.objectContaining({ action: 'reveal', reason: 'Ticket 42: requester says the thread is lost', actorUserId: admin.userId, actorUsername: 'admin', workflowId: `support-ticket/${ticketId}` }),
    ]);
  });

  it('exports a history encoded, or decoded with the same redaction, and audits each export', async () => {
    // An encoded export is readable through the codec: it needs a reason, like a reveal.
    const exports = () => stack.db.selectFrom('operator_audit').select('id').where('workflow_id', '=', `lease-up/${applicationId}`).where('action', '=', 'export').execute();
    const exportsBefore = (await exports()).length;
    const unreasoned = await call('POST', `/api/Operator/cases/lease-up/${applicationId}/export`, admin, { format: 'encoded' });
    expect(unreasoned.statusCode).toBe(400);
    expect(unreasoned.json()).toMatchObject({ status: 400, data: { code: 'validation', issues: [{ path: 'body.reason' }] } });
    expect(await exports()).toHaveLength(exportsBefore);
    const encoded = await call('POST', `/api/Operator/cases/lease-up/${applicationId}/export`, admin, { format: 'encoded', reason: 'Agency audit 7: the whole history' });
    expect(encoded.statusCode).toBe(200);
    expect(encoded.headers['content-disposition']).toContain(`lease-up-${applicationId}-encoded.json`);
    expect(JSON.parse(encoded.body).events[0].eventType).toBeDefined();
    expect(encoded.body).toContain(Buffer.from('binary/encrypted').toString('base64'));

    const decoded = await call('POST', `/api/Operator/cases/lease-up/${applicationId}/export`, admin, { format: 'decoded' });
    const started = JSON.parse(decoded.body).events[0];
    expect(started.payloads[0]).toMatchObject({ applicationId, householdIncome: REDACTED });
    const revealed = await call('POST', `/api/Operator/cases/lease-up/${applicationId}/export`, admin, { format: 'decoded', reason: 'Audit request 7 from the housing agency' });
    expect(JSON.parse(revealed.body).events[0].payloads[0]).toMatchObject({ householdIncome: 52_345 });
    expect((await call('POST', `/api/Operator/cases/lease-up/${applicationId}/export`, admin, { format: 'yaml' })).statusCode).toBe(400);

    const log = await call('GET', `/api/Operator/audit?workflowId=${encodeURIComponent(`lease-up/${applicationId}`)}&limit=2`, admin);
    const page = log.json().data;
    expect(page.items.map((e: { action: string; detail: { format: string } }) => [e.action, e.detail.format])).toEqual([
      ['export', 'decoded'],
      ['export', 'decoded'],
    ]);
    expect(page.nextCursor).not.toBeNull();
    const next = await call('GET', `/api/Operator/audit?workflowId=${encodeURIComponent(`lease-up/${applicationId}`)}&limit=2&cursor=${page.nextCursor}`, admin);
    expect(next.json().data.items.map((e: { detail: { format: string } }) => e.detail.format)).toEqual(['encoded']);
  });

  it('retries and resets a running case to a chosen point, then terminates it, each with a reason and audited', async () => {
    const base = `/api/Operator/cases/lease-up/${applicationId}`;
    expect((await call('POST', `${base}/retry`, admin, {})).statusCode).toBe(400);
    const retried = await call('POST', `${base}/retry`, admin, { reason: 'Projection stuck after the database outage' });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data.runId).toMatch(/^[0-9a-f-]{36}$/);

    // The new run replays from the reset point: once its workflow task completes, there is a point to reset to.
    const history: OperatorHistory = await eventually(async () => {
      const h: OperatorHistory = (await call('GET', `${base}/history`, admin)).json().data;
      return h.resetPoints.length > 0 ? h : null;
    });
    expect(history.events.some((e) => e.type === 'WORKFLOW_TASK_FAILED')).toBe(true);
    const notAResetPoint = history.events.find((e) => !history.resetPoints.includes(e.eventId))!.eventId;
    expect((await call('POST', `${base}/reset`, admin, { reason: 'Go back before the bad update', eventId: notAResetPoint })).statusCode).toBe(400);
    expect((await call('POST', `${base}/reset`, admin, { reason: 'Go back before the bad update', eventId: 'three' })).statusCode).toBe(400);
    const reset = await call('POST', `${base}/reset`, admin, { reason: 'Go back before the bad update', eventId: history.resetPoints[0] });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data).toMatchObject({ eventId: history.resetPoints[0] });

    const terminated = await call('POST', `${base}/terminate`, admin, { reason: 'Duplicate application, agreed with the household' });
    expect(terminated.statusCode).toBe(200);
    expect((await stack.temporal.workflow.getHandle(`lease-up/${applicationId}`).describe()).status.name).toBe('TERMINATED');
    expect((await call('POST', `${base}/terminate`, admin, { reason: 'Duplicate application, agreed with the household' })).statusCode).toBe(409);

    const log = (await call('GET', `/api/Operator/audit?workflowId=${encodeURIComponent(`lease-up/${applicationId}`)}`, admin)).json().data.items;
    expect(log.slice(0, 3).map((e: { action: string; reason: string }) => [e.action, e.reason])).toEqual([
      ['terminate', 'Duplicate application, agreed with the household'],
      ['reset', 'Go back before the bad update'],
      ['retry', 'Projection stuck after the database outage'],
    ]);
  });

  it('lists stuck cases by reason, paged', async () => {
    for (const reason of ['overdue', 'idle', 'failing']) {
      const res = await call('GET', `/api/Operator/stuck?reason=${reason}&days=1&limit=10`, admin);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ items: expect.any(Array), nextCursor: null });
      // Nothing here is stuck: the cases of this test are minutes old, and their activities succeed.
      expect(res.json().data.items.filter((c: { workflowId: string }) => c.workflowId === `support-ticket/${ticketId}`)).toEqual([]);
    }
    // The cursor is Temporal's page token sealed to its list: the next page of the same list is read,
    // another list or a changed cursor refuses it.
    const first = (await call('GET', '/api/Operator/stuck?reason=failing&limit=1', admin)).json().data;
    expect(first.nextCursor).toEqual(expect.any(String));
    const next = await call('GET', `/api/Operator/stuck?reason=failing&limit=1&cursor=${first.nextCursor}`, admin);
    expect(next.statusCode).toBe(200);
    expect((await call('GET', `/api/Operator/stuck?reason=overdue&limit=1&cursor=${first.nextCursor}`, admin)).statusCode).toBe(400);
    const tampered = `${first.nextCursor.slice(0, -2)}${first.nextCursor.endsWith('AA') ? 'AB' : 'AA'}`;
    expect((await call('GET', `/api/Operator/stuck?reason=failing&limit=1&cursor=${tampered}`, admin)).statusCode).toBe(400);
    expect((await call('GET', '/api/Operator/stuck?reason=slow', admin)).statusCode).toBe(400);
    expect((await call('GET', '/api/Operator/stuck?days=0', admin)).statusCode).toBe(400);
  });

  it('refuses everyone but Admins, and bad input with a 400 in the envelope', async () => {
    const urls: ['GET' | 'POST', string, object?][] = [
      ['GET', `/api/Operator/cases?logNumber=${logNumber}`],
      ['GET', '/api/Operator/stuck'],
      ['GET', '/api/Operator/audit'],
      ['GET', `/api/Operator/cases/support-ticket/${ticketId}/history`],
      ['POST', `/api/Operator/cases/support-ticket/${ticketId}/history/reveal`, { reason: 'Just curious about it' }],
      ['POST', `/api/Operator/cases/support-ticket/${ticketId}/export`, { format: 'encoded', reason: 'Just curious about it' }],
      ['POST', '/api/Operator/codec-reason', { reason: 'Just curious about it' }],
      ['POST', `/api/Operator/cases/support-ticket/${ticketId}/retry`, { reason: 'Just curious about it' }],
      ['POST', `/api/Operator/cases/support-ticket/${ticketId}/terminate`, { reason: 'Just curious about it' }],
      ['POST', `/api/Operator/cases/support-ticket/${ticketId}/reset`, { reason: 'Just curious about it', eventId: 3 }],
    ];
    for (const [method, url, body] of urls) {
      expect((await call(method, url, undefined, body)).statusCode, `${url} signed out`).toBe(401);
      for (const who of [manager, applicant]) {
        const res = await call(method, url, who, body);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toMatchObject({ status: 403, data: { code: 'forbidden' } });
      }
    }
    const bad = async (url: string) => {
      const res = await call('GET', url, admin);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().status).toBe(400);
      return res.json().message as string;
    };
    expect(await bad('/api/Operator/cases')).toMatch(/one of log number, email or household/);
    expect(await bad(`/api/Operator/cases?logNumber=${logNumber}&email=a@example.org`)).toMatch(/one of/);
    expect(await bad("/api/Operator/cases?logNumber=LU-1' OR 1=1")).toMatch(/log number/);
    expect(await bad('/api/Operator/cases?email=nobody')).toMatch(/valid email/);
    await bad('/api/Operator/cases/pizza/00000000-0000-0000-0000-000000000000/history');
    await bad('/api/Operator/cases/lease-up/not-a-uuid/history');
    await bad('/api/Operator/audit?limit=1000');
    expect((await call('GET', `/api/Operator/cases/lease-up/${randomUUID()}/history`, admin)).statusCode).toBe(404);
    expect((await call('POST', `/api/Operator/cases/lease-up/${randomUUID()}/terminate`, admin, { reason: 'No such case here' })).statusCode).toBe(404);
    expect((await call('POST', `/api/Operator/cases/support-ticket/${ticketId}/reset`, admin, { reason: 'x'.repeat(501), eventId: 3 })).statusCode).toBe(400);
  });

  it('redacts failure messages in an exported or unrevealed history, and lottery groups until a reason is given', async () => {
    const secret = `Could not verify SSN ${SSN} for ${tenantName}`;
    const history = {
      events: [
        { eventId: 1, eventType: 1, workflowExecutionStartedEventAttributes: { workflowType: { name: 'leaseUp' } } },
        { eventId: 7, eventType: 12, activityTaskFailedEventAttributes: { failure: { message: secret, stackTrace: `at check (${SSN})`, cause: { message: secret } } } },
      ],
    };
    const deps = {
      db: stack.db,
      codec: undefined as never,
      taskQueue: 'q',
      dataKey: stack.config.DATA_ENCRYPTION_KEY,
      temporal: { workflow: { getHandle: () => ({ fetchHistory: async () => history }) } } as unknown as Client,
    } satisfies OperatorDeps;
    const encoded = await encodedHistory(deps, 'lease-up/x');
    expect(encoded).not.toContain(SSN);
    expect(encoded).not.toContain(tenantName);
    expect(JSON.parse(encoded).events[1].activityTaskFailedEventAttributes.failure).toMatchObject({ message: REDACTED, stackTrace: REDACTED, cause: { message: REDACTED } });
    const hidden = await caseHistory(deps, 'lease-up/x', false);
    expect(hidden.events[1]!.failure).toBe(REDACTED);
    expect((await caseHistory(deps, 'lease-up/x', true)).events[1]!.failure).toBe(secret);

    // A household's lottery groups and its place in each say who has a disability: redacted whole.
    const entry = { logNumber: 'LU-000123', groups: ['disability', 'senior'], groupPositions: { disability: 3 }, lotteryGroups: ['disability'] };
    const redacted = redactPersonal(entry) as Record<string, unknown>;
    expect(redacted).toEqual({ logNumber: 'LU-000123', groups: REDACTED, groupPositions: REDACTED, lotteryGroups: REDACTED });
    expect(JSON.stringify(redacted)).not.toContain('disability');
  });
});
