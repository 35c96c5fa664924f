import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { LEASE_UP_TABLE, formatLogNumber, lotteryWorkflowId, type LeaseUpAction, type LeaseUpView, type LotteryAction, type LotteryView } from '../../domain';
import { createKeyRing } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { leaseUpApplicationId, leaseUpWorkflowId } from '../../infra/temporal/ids';
import { leaseUpMessages } from '../../workflows/lease-up.messages';
import { lotteryMessages } from '../../workflows/lottery.messages';
import { TINY_PNG } from './lease-up-env';
import { startTimeSkippingEnv } from './time-skipping';
import { HISTORY_FIXTURE_KEY } from './workflow-env';
import { HOUR, DAY } from '../../domain/time';

export { DAY };

/**
 * Lotteries on the time-skipping environment (tests/helpers/time-skipping.ts), with the lease-up
 * cases they invite: an opportunity of the demo organisation, households applying, the lottery's
 * Updates and the invited cases' actions. One per test file; its tests run serially (time is global).
 */
export async function startLotteryEnv() {
  useDataKeys(createKeyRing(HISTORY_FIXTURE_KEY));
  const ts = await startTimeSkippingEnv();
  const org = await ts.db.selectFrom('organizations').select('id').orderBy('created_at').executeTakeFirstOrThrow();
  const tag = randomUUID().slice(0, 6);
  const managerUser = await ts.db
    .insertInto('users')
    .values({ username: `lot-manager-${tag}`, email: `lot-manager-${tag}@example.org`, first_name: 'Lottery', last_name: 'Manager', role: 'Manager', password_hash: 'unused', organization_id: org.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const deps = { db: ts.db, temporal: ts.client, taskQueue: ts.taskQueue };
  const systemActor = { userId: 'system', role: 'system' as const, impersonatedBy: null };

  /**
   * A lottery opportunity (a draft unless published later), its last day `deadlineInDays` after today
   * on the test server; no mail grace period unless asked (its list freezes when applications close).
   */
  async function createOpportunity(options: { units: number; deadlineInDays: number; mailGraceDays?: number; settings?: { offerExpiryDays: number; appealWindowDays: number } }) {
    const today = new Date(await ts.env.currentTimeMs()).toISOString().slice(0, 10);
    const deadline = new Date(Date.parse(today) + options.deadlineInDays * DAY).toISOString().slice(0, 10);
    const { id } = await ts.db
      .insertInto('opportunities')
      .values({
        organization_id: org.id,
        name: `Lottery House ${tag}`,
        kind: 'rental',
        address: '1 Draw St',
        lottery_end_date: deadline,
        mail_grace_days: options.mailGraceDays ?? 0,
        published: false,
        selection: 'lottery',
        amenities: '[]',
        requirements: '[]',
        income_ranges: '[]',
        lottery_set_asides: '[]',
        ...(options.settings ? { offer_expiry_days: options.settings.offerExpiryDays, appeal_window_days: options.settings.appealWindowDays } : {}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ts.db
      .insertInto('units')
      .values(Array.from({ length: options.units }, (_, i) => ({ opportunity_id: id, unit_number: `${i + 1}A`, bedroom_type: '1 bedroom', address: '1 Draw St', accessibility: '[]', monthly_rent: 900, ami_percent: 50 })))
      .execute();
    return { id, deadline };
  }

  /** A household with a complete profile and its own applicant account (not applied yet). */
  async function household(size = 2) {
    const suffix = randomUUID().slice(0, 8);
    const user = await ts.db
      .insertInto('users')
      .values({ username: `lot-${suffix}`, email: `lot-${suffix}@example.org`, first_name: 'Lottery', last_name: suffix, role: 'User', password_hash: 'unused' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const home = await ts.db.insertInto('households').values({ head_user_id: user.id, household_size: size, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow();
    return { userId: user.id, householdId: home.id };
  }

  /** `count` households applied to the lottery: rows 'in lottery' with log numbers and no workflow, as applying writes them. */
  async function addApplications(opportunityId: string, count: number) {
    for (let i = 0; i < count; i++) {
      const h = await household();
      const id = leaseUpApplicationId(opportunityId, h.householdId);
      const log = await ts.db.insertInto('application_log_numbers').values({ application_id: id }).returning('number').executeTakeFirstOrThrow();
      await ts.db
        .insertInto('applications')
        .values({
          id,
          workflow_id: leaseUpWorkflowId(id),
          household_id: h.householdId,
          opportunity_id: opportunityId,
          organization_id: org.id,
          applicant_user_id: h.userId,
          log_number: formatLogNumber(log.number),
          status: 'in_lottery',
          current_step: 'submitted',
          pending_tasks: '[]',
          household_size: 2,
          household_income: 30_000,
          lottery_groups: '[]',
          applied_at: new Date(),
          state_updated_at: new Date(),
          state_version: 0,
        })
        .execute();
    }
  }

  /** Waits (in real time, the test server's clock is not moved) until `check` holds, or fails naming `what`. */
  async function until<T>(read: () => Promise<T>, check: (v: T) => boolean, what: string, ms = 60_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (check(v)) return v;
      if (Date.now() > end) throw new Error(`never reached: ${what} (${JSON.stringify(v)})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The lottery of one opportunity: its Updates, view and read model, and the cases it invited. */
  function lottery(opportunityId: string) {
    const handle: WorkflowHandle = ts.client.workflow.getHandle(lotteryWorkflowId(opportunityId));
    const manager = { actor: { userId: managerUser.id, role: 'manager' as const, impersonatedBy: null } };
    const view = () => handle.query(lotteryMessages.getView);
    const rows = () =>
      ts.db
        .selectFrom('applications')
        .select(['id', 'status', 'log_number', 'lottery_rank', 'invited_at', 'household_id', 'applicant_user_id'])
        .where('opportunity_id', '=', opportunityId)
        .orderBy('lottery_rank')
        .execute();
    return {
      handle,
      view,
      rows,
      send: <A extends Exclude<LotteryAction, 'UnitReleased' | 'UnitLeased'>>(action: A, input: object = {}): Promise<LotteryView> =>
        handle.executeUpdate(lotteryMessages.updates[action], { args: [{ ...manager, ...input } as never] }),
      /** A lease-up case signalling the lottery directly (a repeated or late message). */
      signal: (action: 'UnitReleased' | 'UnitLeased', input: object) => handle.signal(lotteryMessages.signals[action]!, { actor: systemActor, ...input } as never),
      until: (check: (v: LotteryView) => boolean, what: string) => until(view, check, what),
      /** Invited applications (their cases started), in rank order. */
      invited: async () => (await rows()).filter((r) => r.invited_at !== null),
    };
  }

  /** One invited household's lease-up case: its actions as the applicant or the manager. */
  function leaseUpCase(applicationId: string) {
    const handle = ts.client.workflow.getHandle(leaseUpWorkflowId(applicationId));
    const view = () => handle.query(leaseUpMessages.getView) as Promise<LeaseUpView>;
    const as = async (role: 'applicant' | 'manager', extra: object = {}) => ({
      actor: { userId: role === 'applicant' ? (await view()).applicantUserId : managerUser.id, role, impersonatedBy: null },
      ...extra,
    });
    const act = async (action: LeaseUpAction, extra: object = {}): Promise<LeaseUpView> =>
      handle.executeUpdate(leaseUpMessages.updates[action], { args: [(await as(LEASE_UP_TABLE[action].by, extra)) as never] });
    const inHours = async (hours: number) => new Date((await ts.env.currentTimeMs()) + hours * HOUR).toISOString();
    const signature = async () => {
      const signatureKey = `tests/signatures/${randomUUID()}.png`;
      await ts.blobs.put(signatureKey, TINY_PNG, 'image/png');
      return { signatureKey, ipAddress: '203.0.113.7', signerName: 'Lottery Signer' };
    };
    return {
      handle,
      view,
      act,
      /** Documentation reviewed, an appointment booked, and a unit offered (an open offer). */
      async toUnitOffer(unit: { id: string; unit_number: string; bedroom_type: string; address: string }) {
        await act('SubmitProfile');
        await act('MarkAsComplete');
        const slot = await inHours(72);
        await act('ProceedToAppointmentScheduling', { slots: [slot] });
        await act('ScheduleAppointment', { slot });
        return act('OfferUnit', { units: [{ unitId: unit.id, unitNumber: unit.unit_number, bedroomType: unit.bedroom_type, address: unit.address }] });
      },
      /** From an open offer to the lease signed: accepted, TIC signed and approved, lease letter signed, ended. */
      async toLeaseSigned(offerId: string) {
        await act('RespondToUnitOffer', { offerId, accept: true });
        await act('ProceedWithUnitOffer');
        await act('GenerateIncomeCertification');
        await act('SignTIC', { signature: await signature() });
        await act('ApproveIncomeCertification');
        await act('SignLeaseLetter', { signature: await signature() });
        return act('CompleteLeaseSigning');
      },
    };
  }

  return { ts, deps, org, managerUserId: managerUser.id, createOpportunity, household, addApplications, lottery, leaseUpCase, until, close: () => ts.close() };
}
