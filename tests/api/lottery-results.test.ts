import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markInvited, nextInvitations } from '../../activities/lottery';
import { seedHash } from '../../infra/lottery/draw';
import { insertDrawnLottery, type DrawnLottery } from '../helpers/drawn-lottery';
import { startStack, type Stack } from '../helpers/stack';

/** Public results by lottery number, without names, and whether the draw verifies. */
describe('GET /api/lottery/:opportunityId/results', () => {
  let stack: Stack;
  let drawn: DrawnLottery;
  const get = (url: string) => stack.app.inject({ url });
  beforeAll(async () => {
    stack = await startStack({ seed: false });
    drawn = await insertDrawnLottery(stack.db, { households: 40, units: 6 });
  });
  afterAll(() => stack?.close());

  it('publishes the draw to anyone, verified, with the ranked list paged by cursor and no personal data', async () => {
    const first = await get(`/api/lottery/${drawn.opportunityId}/results?limit=15`);
    expect(first.statusCode).toBe(200);
    const { status, data } = first.json();
    expect(status).toBe(200);
    expect(data.lottery).toMatchObject({
      opportunityId: drawn.opportunityId,
      drawn: true,
      seedHash: seedHash(drawn.seed),
      seed: drawn.seed,
      publicValue: drawn.publicValue,
      algorithm: drawn.result.algorithm,
      listHash: drawn.result.listHash,
      resultHash: drawn.result.resultHash,
      entries: 40,
      units: 6,
      verified: true,
    });
    expect(data.lottery.drawnAt).toBe('2026-11-20T15:00:00.000Z');
    expect(data.place).toBeNull();

    const listed = [...data.ranks.items];
    let after = data.ranks.nextAfter;
    expect(after).toBe(15);
    while (after !== null) {
      const page = (await get(`/api/lottery/${drawn.opportunityId}/results?after=${after}&limit=15`)).json().data.ranks;
      expect(page.items.length).toBeLessThanOrEqual(15);
      listed.push(...page.items);
      after = page.nextAfter;
    }
    expect(listed).toEqual(drawn.result.ranked.map((r) => ({ logNumber: r.logNumber, rank: r.rank })));

    // Names, e-mails and ids of households, users and applications never appear.
    const bodies = JSON.stringify([data, listed]);
    for (const personal of ['First', 'Last', '@example.test', 'lottery-']) expect(bodies).not.toContain(personal);
    const ids = await stack.db.selectFrom('applications').select(['id', 'household_id', 'applicant_user_id']).where('opportunity_id', '=', drawn.opportunityId).execute();
    for (const r of ids) for (const id of [r.id, r.household_id, r.applicant_user_id]) expect(bodies).not.toContain(id);
  });

  it('finds one log number, case-insensitively, with its rank and group positions', async () => {
    const someone = drawn.result.ranked.find((r) => Object.keys(r.groupPositions).length > 0)!;
    const r = await get(`/api/lottery/${drawn.opportunityId}/results?logNumber=${encodeURIComponent(someone.logNumber.toLowerCase())}`);
    expect(r.statusCode).toBe(200);
    expect(r.json().data.place).toEqual(someone);
    expect(r.json().data.ranks).toBeNull();
    const missing = await get(`/api/lottery/${drawn.opportunityId}/results?logNumber=LU-999999`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: 404, message: 'No ranked application has this log number', data: { code: 'notFound' } });
  });

  it('refuses bad input with a 400 in the envelope, and answers 404 for unknown or unpublished opportunities', async () => {
    const base = `/api/lottery/${drawn.opportunityId}/results`;
    for (const [query, message] of [
      ['?logNumber=%3Cscript%3E', 'Invalid log number'],
      ['?logNumber=LU%20000001', 'Invalid log number'],
      ['?limit=101', 'At most 100 per page'],
      ['?limit=0', 'Invalid page size'],
      ['?after=-1', 'Invalid cursor'],
      ['?after=abc', 'Invalid cursor'],
    ] as const) {
      const r = await get(`${base}${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json(), query).toMatchObject({ status: 400, message, data: { code: 'validation' } });
    }
    const badId = await get('/api/lottery/not-a-uuid/results');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe('Invalid opportunity id');
    expect((await get('/api/lottery/00000000-0000-4000-8000-000000000000/results')).statusCode).toBe(404);
    const hidden = await insertDrawnLottery(stack.db, { households: 3, published: false });
    expect((await get(`/api/lottery/${hidden.opportunityId}/results`)).json()).toMatchObject({ status: 404, data: { code: 'notFound' } });
  });

  it('before the draw publishes only the seed hash; ranks are a 404', async () => {
    const pending = await insertDrawnLottery(stack.db, { households: 5, drawn: false });
    const r = await get(`/api/lottery/${pending.opportunityId}/results`);
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toEqual({
      lottery: expect.objectContaining({ drawn: false, seedHash: seedHash(pending.seed), seed: null, publicValue: null, listHash: null, resultHash: null, entries: null, drawnAt: null, verified: null }),
      place: null,
      ranks: null,
    });
    expect(r.body).not.toContain(pending.seed);
    for (const query of ['?logNumber=LU-000001', '?after=0']) {
      const refused = await get(`/api/lottery/${pending.opportunityId}/results${query}`);
      expect(refused.statusCode, query).toBe(404);
      expect(refused.json().message).toBe('The lottery has not been drawn yet');
    }
  });

  it('publishes the frozen list, its hash and size, once it freezes and before the draw', async () => {
    const pending = await insertDrawnLottery(stack.db, { households: 7, drawn: false });
    const before = (await get(`/api/lottery/${pending.opportunityId}/results`)).json().data.lottery;
    expect(before).toMatchObject({ drawn: false, frozen: null, listHash: null, entries: null, listFreezesAt: expect.any(String) });
    const frozenAt = new Date('2026-11-09T00:00:00Z');
    await stack.db.updateTable('opportunity_lotteries').set({ frozen_list_hash: pending.result.listHash, frozen_entries: 7, frozen_at: frozenAt }).where('opportunity_id', '=', pending.opportunityId).execute();
    const after = (await get(`/api/lottery/${pending.opportunityId}/results`)).json().data.lottery;
    expect(after).toMatchObject({
      drawn: false,
      seed: null,
      resultHash: null,
      listHash: pending.result.listHash,
      entries: 7,
      frozen: { listHash: pending.result.listHash, entries: 7, frozenAt: frozenAt.toISOString() },
    });
  });

  it('says so when stored ranks do not reproduce the published draw', async () => {
    const tampered = await insertDrawnLottery(stack.db, { households: 12, units: 3 });
    const [top, next] = tampered.result.ranked;
    await stack.db.updateTable('applications').set({ lottery_rank: next!.rank }).where('log_number', '=', top!.logNumber).execute();
    await stack.db.updateTable('applications').set({ lottery_rank: top!.rank }).where('log_number', '=', next!.logNumber).execute();
    const r = await get(`/api/lottery/${tampered.opportunityId}/results`);
    expect(r.json().data.lottery.verified).toBe(false);
    expect(r.json().data.ranks.items.slice(0, 2)).toEqual([{ logNumber: next!.logNumber, rank: 1 }, { logNumber: top!.logNumber, rank: 2 }]);
  });

  it('publishes the invitation log by log number, paged by cursor, with its head and no personal data', async () => {
    const lottery = await insertDrawnLottery(stack.db, { households: 20, units: 4 });
    const second = lottery.result.ranked[1]!.logNumber;
    await stack.db.updateTable('applications').set({ waitlist_state: 'inactive', waitlist_state_at: new Date('2026-11-21T10:00:00Z') }).where('log_number', '=', second).execute();
    const batch = await nextInvitations(stack.db, { opportunityId: lottery.opportunityId, count: 3 });
    await markInvited(stack.db, { opportunityId: lottery.opportunityId, applicationIds: batch.invitations.map((i) => i.input.applicationId) });

    const first = (await get(`/api/lottery/${lottery.opportunityId}/invitation-log?limit=2`)).json();
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ genesis: lottery.result.resultHash, length: 4, nextAfter: 2 });
    const rest = (await get(`/api/lottery/${lottery.opportunityId}/invitation-log?after=2&limit=2`)).json().data;
    expect(rest.nextAfter).toBeNull();
    const lines = [...first.data.items, ...rest.items];
    expect(lines.map((l: { logNumber: string; rank: number; event: string; reason: string }) => [l.logNumber, l.rank, l.event, l.reason])).toEqual([
      [second, 2, 'passed_over', 'inactive'],
      [lottery.result.ranked[0]!.logNumber, 1, 'invited', 'in_rank_order'],
      [lottery.result.ranked[2]!.logNumber, 3, 'invited', 'in_rank_order'],
      [lottery.result.ranked[3]!.logNumber, 4, 'invited', 'in_rank_order'],
    ]);
    expect(first.data.head).toBe(lines.at(-1).hash);
    const results = (await get(`/api/lottery/${lottery.opportunityId}/results`)).json().data;
    expect(results.lottery.verified).toBe(true);

    const body = JSON.stringify(lines);
    for (const personal of ['First', 'Last', '@example.test', 'lottery-']) expect(body).not.toContain(personal);
    const ids = await stack.db.selectFrom('applications').select(['id', 'household_id', 'applicant_user_id']).where('opportunity_id', '=', lottery.opportunityId).execute();
    for (const r of ids) for (const id of [r.id, r.household_id, r.applicant_user_id]) expect(body).not.toContain(id);

    expect((await get(`/api/lottery/${lottery.opportunityId}/invitation-log?after=-1`)).json()).toMatchObject({ status: 400, message: 'Invalid cursor' });
    expect((await get('/api/lottery/00000000-0000-4000-8000-000000000000/invitation-log')).statusCode).toBe(404);
    const pending = await insertDrawnLottery(stack.db, { households: 3, drawn: false });
    expect((await get(`/api/lottery/${pending.opportunityId}/invitation-log`)).json()).toMatchObject({ status: 404, message: 'The lottery has not been drawn yet' });
  });
});
