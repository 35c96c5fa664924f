import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { applicationsCloseAt, formatLogNumber, listFreezesAt, lotteryWorkflowId, type LeaseUpView, type LotteryAction, type LotteryView } from '../../domain';
import { createKeyRing } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { listHash } from '../../infra/lottery/draw';
import { verifyLottery } from '../../infra/lottery/verify';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { actOnLottery, openLottery } from '../../api/services/lottery';
import { leaseUpMessages } from '../../workflows/lease-up.messages';
import { lotteryMessages } from '../../workflows/lottery.messages';
import { recordHistory } from '../helpers/histories';
import { refusal } from '../helpers/refusal';
import { startTimeSkippingEnv } from '../helpers/time-skipping';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';
import { DAY } from '../../domain/time';

const HOUSEHOLDS = 30;

describe('lottery workflow (time skipping)', () => {
  let ts: Awaited<ReturnType<typeof startTimeSkippingEnv>>;
  let opportunityId: string;
  let handle: WorkflowHandle;
  let managerId: string;
  const manager = { actor: { userId: randomUUID(), role: 'manager' as const, impersonatedBy: null } };
  const send = <A extends Exclude<LotteryAction, 'UnitReleased'>>(action: A, input: object = {}): Promise<LotteryView> =>
    handle.executeUpdate(lotteryMessages.updates[action], { args: [{ ...manager, ...input } as never] });
  const view = () => handle.query(lotteryMessages.getView);
  // Bounded by real time, not by a count of polls: on a busy machine a batch of child starts can take long.
  async function until(check: (v: LotteryView) => boolean, what: string): Promise<LotteryView> {
    const end = Date.now() + 60_000;
    for (;;) {
      const v = await view();
      if (check(v)) return v;
      if (Date.now() > end) throw new Error(`lottery never reached: ${what} (${JSON.stringify(v)})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  /** Sleeps on the test server until `ms` after the moment `iso` (whatever the time of day the test runs). */
  const sleepUntilAfter = async (iso: string, ms: number) => ts.env.sleep(Date.parse(iso) + ms - (await ts.env.currentTimeMs()));
  const statuses = async () =>
    (await ts.db.selectFrom('applications').select(['id', 'status', 'lottery_rank', 'lottery_skip_reason']).where('opportunity_id', '=', opportunityId).orderBy('lottery_rank').execute());

  beforeAll(async () => {
    useDataKeys(createKeyRing(HISTORY_FIXTURE_KEY));
    ts = await startTimeSkippingEnv();
    const org = await ts.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    ({ id: managerId } = await ts.db
      .insertInto('users')
      .values({ username: `lot-manager-${randomUUID().slice(0, 8)}`, email: `lot-manager-${randomUUID().slice(0, 8)}@example.org`, first_name: 'Lottery', last_name: 'Manager', role: 'Manager', password_hash: 'unused', organization_id: org.id })
      .returning('id')
      .executeTakeFirstOrThrow());
    const today = new Date(await ts.env.currentTimeMs()).toISOString().slice(0, 10);
    const deadline = new Date(Date.parse(today) + 3 * DAY).toISOString().slice(0, 10);
    ({ id: opportunityId } = await ts.db
      .insertInto('opportunities')
      .values({ organization_id: org.id, name: 'Lottery House', kind: 'rental', address: '1 Draw St', lottery_end_date: deadline, published: true, selection: 'lottery', amenities: '[]', requirements: '[]', income_ranges: '[]', lottery_set_asides: JSON.stringify([{ group: 'disability', share: 0.5 }]) })
      .returning('id')
      .executeTakeFirstOrThrow());
    await ts.db
      .insertInto('units')
      .values(['1A', '1B'].map((n) => ({ opportunity_id: opportunityId, unit_number: n, bedroom_type: '1 bedroom', address: '1 Draw St', accessibility: '[]', monthly_rent: 900, ami_percent: 50 })))
      .execute();
    await openLottery({ db: ts.db, temporal: ts.client, taskQueue: ts.taskQueue }, opportunityId);
    handle = ts.client.workflow.getHandle(lotteryWorkflowId(opportunityId));
    // Households apply: rows 'in lottery' with log numbers, no workflow; one too large for a 1-bedroom unit.
    for (let i = 0; i < HOUSEHOLDS; i++) {
      const user = await ts.db
        .insertInto('users')
        .values({ username: `lot-${i}-${opportunityId.slice(0, 6)}`, email: `lot-${i}-${opportunityId.slice(0, 6)}@example.org`, first_name: 'A', last_name: `${i}`, role: 'User', password_hash: 'unused' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const size = i === 0 ? 6 : 2;
      const household = await ts.db.insertInto('households').values({ head_user_id: user.id, household_size: size, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow();
      const id = leaseUpApplicationId(opportunityId, household.id);
      const log = await ts.db.insertInto('application_log_numbers').values({ application_id: id }).returning('number').executeTakeFirstOrThrow();
      await ts.db
        .insertInto('applications')
        .values({
          id,
          workflow_id: leaseUpWorkflowId(id),
          household_id: household.id,
          opportunity_id: opportunityId,
          organization_id: org.id,
          applicant_user_id: user.id,
          log_number: formatLogNumber(log.number),
          status: 'in_lottery',
          current_step: 'submitted',
          pending_tasks: '[]',
          household_size: size,
          household_income: 30_000,
          lottery_groups: JSON.stringify(i % 3 === 0 ? ['disability'] : []),
          applied_at: new Date(),
          state_updated_at: new Date(),
          state_version: 0,
        })
        .execute();
    }
  }, 180_000);
  afterAll(() => ts?.close());

  it('closes at its deadline, freezes and publishes its list after the mail grace period, refuses to draw a changed list, draws a verifiable order, invites in rank order, invites the next in line exactly once per released place, and keeps its waitlist when filled', async () => {
    // Accepting: no draw yet; the deadline only moves later.
    expect(await refusal(send('Draw', { publicValue: '42' }))).toBe('actionNotAllowedNow');
    const first = await view();
    expect(await refusal(send('ExtendDeadline', { deadline: first.deadline }))).toBe('deadlineNotLater');
    const later = new Date(Date.parse(first.deadline) + DAY).toISOString().slice(0, 10);
    expect((await send('ExtendDeadline', { deadline: later })).deadline).toBe(later);

    // The old deadline passes: still accepting; the new one passes: closed (the timer, also in the read model).
    await sleepUntilAfter(applicationsCloseAt(first.deadline), 60_000);
    expect((await view()).stage).toBe('accepting');
    await sleepUntilAfter(applicationsCloseAt(later), 60_000);
    const closedForApplications = await until((v) => v.stage === 'closed', 'closed');

    // Closed but inside the mail grace period: the list is not frozen, so it cannot be drawn yet.
    expect(closedForApplications.frozen).toBeNull();
    expect(closedForApplications.listFreezesAt).toBe(listFreezesAt(later, 7));
    expect(await refusal(send('Draw', { publicValue: 'too early' }))).toBe('listNotFrozen');

    // In the grace period a form postmarked on the deadline is entered, and enters the list like any other.
    const paperUser = await ts.db.insertInto('users').values({ username: `paper-${opportunityId.slice(0, 6)}`, email: `paper-${opportunityId.slice(0, 6)}@no-login.invalid`, first_name: 'Paper', last_name: '', role: 'User', password_hash: '!' }).returning('id').executeTakeFirstOrThrow();
    const paperHousehold = await ts.db.insertInto('households').values({ head_user_id: paperUser.id, household_size: 2, login: 'none', language: 'es' }).returning('id').executeTakeFirstOrThrow();
    const scan = await ts.db
      .insertInto('household_documents')
      .values({ household_id: paperHousehold.id, document_type: 'other', file_name: 'form.pdf', content_type: 'application/pdf', size_bytes: 100, uploaded_by: managerId, uploaded_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const office = { actor: { userId: managerId, role: 'manager' as const, impersonatedBy: null } };
    const paperInput = { householdId: paperHousehold.id, householdSize: 2, householdIncome: 30_000, formDocumentId: scan.id, groups: [] };
    const enterPaper = (postmarkDate: string) => handle.executeUpdate(lotteryMessages.updates.EnterPaperApplication, { args: [{ ...office, ...paperInput, postmarkDate } as never] });
    expect(await refusal(enterPaper(new Date(Date.parse(later) + DAY).toISOString().slice(0, 10)))).toBe('postmarkAfterDeadline');
    expect((await enterPaper(later)).paperEntries).toBe(1);
    const paperRow = await ts.db.selectFrom('applications').select(['id', 'status', 'channel', 'log_number']).where('household_id', '=', paperHousehold.id).executeTakeFirstOrThrow();
    expect(paperRow).toMatchObject({ status: 'in_lottery', channel: 'paper', log_number: expect.stringMatching(/^LU-\d{6}$/) });
    const published = () => ts.db.selectFrom('opportunity_lotteries').select(['frozen_list_hash', 'frozen_entries', 'list_hash', 'drawn_at']).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
    expect((await published()).frozen_list_hash).toBeNull();

    // The grace period ends: the list freezes, and its hash and size are published before any draw.
    await sleepUntilAfter(listFreezesAt(later, 7), 60_000);
    const frozen = await until((v) => v.frozen !== null, 'list frozen');
    const listed = await ts.db.selectFrom('applications').select(['log_number', 'lottery_groups']).where('opportunity_id', '=', opportunityId).execute();
    expect(frozen.frozen).toMatchObject({ entries: HOUSEHOLDS + 1, listHash: listHash(listed.map((r) => ({ logNumber: r.log_number!, groups: r.lottery_groups }))) });
    expect(await published()).toMatchObject({ frozen_list_hash: frozen.frozen!.listHash, frozen_entries: HOUSEHOLDS + 1, list_hash: null, drawn_at: null });
    // Once frozen, no more paper.
    expect(await refusal(enterPaper(later))).toBe('actionNotAllowedNow');

    // An application slipped into the list after the freeze: the API refuses the draw, and so does the draw itself.
    const [late] = listed;
    const lateRow = await ts.db.selectFrom('applications').selectAll().where('log_number', '=', late!.log_number).executeTakeFirstOrThrow();
    await ts.db.updateTable('applications').set({ lottery_groups: JSON.stringify(['senior']) }).where('id', '=', lateRow.id).execute();
    const session = { userId: managerId, role: 'Manager' as const, realUserId: null };
    const deps = { db: ts.db, temporal: ts.client, taskQueue: ts.taskQueue };
    await expect(actOnLottery(deps, session, opportunityId, 'Draw', { publicValue: 'changed' })).rejects.toMatchObject({ code: 'listChangedAfterFreeze', statusCode: 409 });
    await send('Draw', { publicValue: 'changed' });
    const refused = await until((v) => v.stage === 'closed' && v.history.some((h) => h.action === 'DrawRefused'), 'the draw refused');
    expect(refused.draw).toBeNull();
    expect((await published()).drawn_at).toBeNull();
    await ts.db.updateTable('applications').set({ lottery_groups: JSON.stringify(lateRow.lottery_groups) }).where('id', '=', lateRow.id).execute();

    // The draw runs as the case's own work; the published values verify against the stored ranks.
    expect((await send('Draw', { publicValue: 'witnessed 7-19-33' })).stage).toBe('drawing');
    const drawn = await until((v) => v.stage === 'drawn', 'drawn');
    // The paper household is drawn like every other: the draw never sees the channel.
    expect(drawn.draw?.entries).toBe(HOUSEHOLDS + 1);
    expect(drawn.waitlist).toBe(HOUSEHOLDS + 1);
    expect((await statuses()).map((r) => r.lottery_rank)).toEqual(Array.from({ length: HOUSEHOLDS + 1 }, (_, i) => i + 1));
    expect((await ts.db.selectFrom('applications').select('lottery_rank').where('id', '=', paperRow.id).executeTakeFirstOrThrow()).lottery_rank).toBeGreaterThan(0);
    expect(drawn.draw?.listHash).toBe(frozen.frozen!.listHash);
    expect(await verifyLottery(ts.db, opportunityId)).toMatchObject({ matches: true, frozenListMatches: true });
    expect(await refusal(send('Draw', { publicValue: 'again' }))).toBe('actionNotAllowedNow');

    // Invite 5 in rank order: each starts its lease-up case at documentation review; the large household is passed over with a reason.
    await send('InviteNext', { count: 5 });
    const afterFive = await until((v) => v.pendingInvitations === 0 && v.invited === 5, 'five invited');
    const rows = await statuses();
    const invited = rows.filter((r) => r.status === 'in_review');
    expect(invited).toHaveLength(5);
    const skipped = rows.filter((r) => r.status === 'skipped');
    expect(skipped.every((r) => r.lottery_skip_reason?.startsWith('householdDoesNotFitUnits'))).toBe(true);
    expect(afterFive.skipped).toBe(skipped.length);
    // Nobody ranked below a waiting household was invited before it.
    const lastInvited = Math.max(...invited.map((r) => r.lottery_rank!));
    expect(rows.filter((r) => r.status === 'waitlisted').every((r) => r.lottery_rank! > lastInvited)).toBe(true);
    const caseView = (id: string) => ts.client.workflow.getHandle(leaseUpWorkflowId(id)).query(leaseUpMessages.getView) as Promise<LeaseUpView>;
    const firstCase = await caseView(invited[0]!.id);
    expect(firstCase.currentStep).toBe('documentation_review');

    // Two households withdraw at once: exactly two more are invited.
    const applicant = async (id: string) => ({ actor: { userId: (await caseView(id)).applicantUserId, role: 'applicant' as const, impersonatedBy: null } });
    await Promise.all(
      invited.slice(0, 2).map(async (r) => ts.client.workflow.getHandle(leaseUpWorkflowId(r.id)).executeUpdate(leaseUpMessages.updates.Withdraw, { args: [(await applicant(r.id)) as never] })),
    );
    await until((v) => v.invited === 7 && v.pendingInvitations === 0, 'two next in line');
    // The same place given back again (a repeated signal) invites nobody: once the workflow task that
    // took the signal has completed (the barrier, read from the history), nothing is pending or invited.
    const released = lotteryMessages.signals.UnitReleased!.name;
    const signalsSoFar = async () => ((await handle.fetchHistory()).events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === released).length;
    const earlier = await signalsSoFar();
    await handle.signal(lotteryMessages.signals.UnitReleased!, { actor: { userId: 'system', role: 'system', impersonatedBy: null }, applicationId: invited[0]!.id, why: 'withdrawn' } as never);
    await expect
      .poll(async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const signals = events.flatMap((e, i) => (e.workflowExecutionSignaledEventAttributes?.signalName === released ? [i] : []));
        return signals.length > earlier && events.slice(signals[earlier]!).some((e) => e.workflowTaskCompletedEventAttributes);
      }, { timeout: 60_000, message: 'a completed workflow task after the repeated UnitReleased signal' })
      .toBe(true);
    expect(await view()).toMatchObject({ invited: 7, pendingInvitations: 0 });

    // Paused: InviteNext is refused and a released place waits; resumed: it is invited.
    await send('PauseInvitations');
    expect(await refusal(send('InviteNext', { count: 1 }))).toBe('invitationsPaused');
    await handle.signal(lotteryMessages.signals.UnitReleased!, { actor: { userId: 'system', role: 'system', impersonatedBy: null }, applicationId: invited[2]!.id, why: 'offer_declined' } as never);
    await until((v) => v.pendingInvitations === 1, 'a pending invitation');
    expect((await view()).invited).toBe(7);
    await send('ResumeInvitations');
    const resumed = await until((v) => v.invited === 8 && v.pendingInvitations === 0, 'invited after resume');
    expect(resumed.batches.at(-1)?.because).toContain('offer_declined');

    // Every unit leased: filled, the waitlist kept; a unit re-rented invites the next fitting household.
    const system = { actor: { userId: 'system', role: 'system', impersonatedBy: null } };
    for (const r of invited.slice(3, 5)) await handle.signal(lotteryMessages.signals.UnitLeased!, { ...system, applicationId: r.id } as never);
    const filled = await until((v) => v.stage === 'filled', 'filled');
    expect(filled.leased).toBe(2);
    expect(filled.waitlist).toBeGreaterThan(0);
    expect(filled.availableActions.manager).toEqual(expect.arrayContaining(['UnitReopened', 'Close']));
    expect(await refusal(send('InviteNext', { count: 1 }))).toBe('actionNotAllowedNow');
    expect((await send('UnitReopened', { unit: '1A' })).stage).toBe('drawn');
    const reinvited = await until((v) => v.invited === 9 && v.pendingInvitations === 0, 'the next household invited for the re-rented unit');
    expect(reinvited.batches.at(-1)?.because).toBe('reopened 1A');

    // Closed: the rest stay ranked as the waitlist; every action is refused.
    expect(await refusal(send('Close'))).toBe('reasonRequired');
    const closed = await send('Close', { reason: 'All units leased' });
    expect(closed.stage).toBe('closed_out');
    // Through the API's path: the workflow may already have completed once its final view is
    // written (an Update sent straight to it would then fail as completed, not as refused).
    await expect(actOnLottery(deps, session, opportunityId, 'InviteNext', { count: 1 })).rejects.toMatchObject({ code: 'lotteryClosed', statusCode: 409 });
    // The large household is passed over whenever its (random) rank is reached: in the first batch or
    // by a later next in line. Counting the passed-over from the first batch only made this test flaky.
    const final = await statuses();
    const passedOver = final.filter((r) => r.status === 'skipped').length;
    expect(passedOver).toBe(closed.skipped);
    expect(passedOver).toBeLessThanOrEqual(1);
    expect(final.filter((r) => r.status === 'waitlisted').length).toBe(HOUSEHOLDS + 1 - 9 - passedOver);
    await handle.result();
    const projected = await ts.db.selectFrom('opportunity_lotteries').select(['stage', 'invited']).where('opportunity_id', '=', opportunityId).executeTakeFirstOrThrow();
    expect(projected).toEqual({ stage: 'closed_out', invited: 9 });
    await recordHistory('lottery', handle);
  }, 240_000);
});
