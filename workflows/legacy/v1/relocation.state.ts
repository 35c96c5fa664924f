import {
  MOVING_SLOT_WEEKDAYS,
  RELOCATION_MANAGER_ACTIONS,
  RELOCATION_MONTHS,
  RELOCATION_TENANT_ACTIONS,
  UNDER_RELOCATION,
  addMonthsUtc,
  type MessageCode,
  type MovingSlot,
  type RelocationAction,
  type RelocationActionInput,
  type RelocationManagerAction,
  type RelocationOffer,
  type RelocationStatus,
  type RelocationTenantAction,
  type RelocationView,
  type StartRelocationInput,
} from './domain';

const DAY = 86_400_000;

/**
 * One temporary relocation and the rules of shared/design/workflows.md "Relocation".
 * Pure: no I/O and no clock; the workflow passes its deterministic time in.
 */
export class RelocationState {
  status: RelocationStatus = 'awaiting_profile';
  profileSubmitted = false;
  readonly offers: RelocationOffer[] = [];
  slots: MovingSlot[] = [];
  bookedSlot: MovingSlot | null = null;
  movedAt: string | null = null;
  endsAt: string | null = null;
  returnedAt: string | null = null;
  readonly extensions: RelocationView['extensions'] = [];
  readonly remindersSent: RelocationView['remindersSent'] = [];
  /** Grows when the end date changes, so the workflow restarts its end timer. */
  endEpoch = 0;
  version = 1;
  updatedAt: string;

  constructor(
    readonly input: StartRelocationInput,
    readonly startedAt: string,
  ) {
    this.updatedAt = startedAt;
  }

  get isFinal(): boolean {
    return this.status === 'returned';
  }

  refusal(action: RelocationAction, input: RelocationActionInput, now: string): MessageCode | null {
    if (input.actor.role !== roleOf(action)) return 'forbidden';
    if (this.isFinal) return 'relocationEnded';
    switch (action) {
      case 'SubmitProfile':
        return this.status === 'awaiting_profile' ? null : 'actionNotAllowedNow';
      case 'OfferTemporaryUnit':
        if (!input.unit) return 'actionNotAllowedNow'; // the API's schema always sends one
        return this.status === 'awaiting_offer' ? null : 'actionNotAllowedNow';
      case 'AcceptOffer':
      case 'DeclineOffer': {
        if (this.status !== 'offered') return 'actionNotAllowedNow';
        const offer = this.offers.find((o) => o.offerId === input.offerId);
        if (!offer || offer.state !== 'open') return 'offerNotOpen';
        return offer.expiresAt && offer.expiresAt <= now ? 'offerNotOpen' : null;
      }
      case 'BookSlot': {
        if (this.status !== 'scheduling' && this.status !== 'moving_booked') return 'actionNotAllowedNow';
        const slot = this.slots.find((s) => s.slotId === input.slotId);
        return slot && slot.startsAt > now ? null : 'slotNotAvailable';
      }
      case 'ConfirmMove':
        return this.status === 'moving_booked' ? null : 'actionNotAllowedNow';
      case 'ExtendRelocation':
        if (!UNDER_RELOCATION.includes(this.status)) return 'actionNotAllowedNow';
        if (!input.until || !input.reason) return 'reasonRequired';
        return `${input.until}T23:59:59.999Z` > (this.endsAt ?? '') ? null : 'invalidExtension';
      case 'ConfirmReturn':
        return UNDER_RELOCATION.includes(this.status) ? null : 'actionNotAllowedNow';
    }
  }

  apply(action: RelocationAction, input: RelocationActionInput, now: string): void {
    switch (action) {
      case 'SubmitProfile':
        this.profileSubmitted = true;
        this.status = 'awaiting_offer';
        break;
      case 'OfferTemporaryUnit':
        this.offers.push({ offerId: `${this.input.relocationId}.${this.offers.length + 1}`, unit: input.unit!, offeredAt: now, expiresAt: input.expiresAt ?? null, state: 'open' });
        this.status = 'offered';
        break;
      case 'AcceptOffer':
        this.offerById(input.offerId).state = 'accepted';
        this.slots = movingSlots(now);
        this.status = 'scheduling';
        break;
      case 'DeclineOffer':
        this.offerById(input.offerId).state = 'declined';
        this.status = 'awaiting_offer';
        break;
      case 'BookSlot':
        this.bookedSlot = this.slots.find((s) => s.slotId === input.slotId) ?? null;
        this.status = 'moving_booked';
        break;
      case 'ConfirmMove':
        this.movedAt = now;
        this.endsAt = addMonthsUtc(now, RELOCATION_MONTHS);
        this.endEpoch += 1;
        this.status = 'relocated';
        break;
      case 'ExtendRelocation':
        this.endsAt = `${input.until}T23:59:59.999Z`;
        this.extensions.push({ until: input.until!, reason: input.reason!, at: now });
        this.endEpoch += 1;
        this.status = 'relocated';
        break;
      case 'ConfirmReturn':
        this.returnedAt = now;
        this.status = 'returned';
        break;
    }
    this.touch(now);
  }

  reminderSent(daysBefore: number, now: string): void {
    this.remindersSent.push({ daysBefore, endsAt: this.endsAt!, sentAt: now });
    this.touch(now);
  }

  markOverdue(now: string): void {
    this.status = 'overdue';
    this.touch(now);
  }

  touch(now: string): void {
    this.updatedAt = now;
    this.version += 1;
  }

  view(now: string): RelocationView {
    const probe = (role: 'tenant' | 'manager'): RelocationActionInput => ({
      actor: { userId: this.input.tenantUserId, role, impersonatedBy: null },
      offerId: this.offers.find((o) => o.state === 'open')?.offerId,
      slotId: this.slots.find((s) => s.startsAt > now)?.slotId,
      unit: { unitNumber: 'probe', bedroomType: 'probe', address: 'probe' },
      until: '9999-12-31',
      reason: 'probe',
    });
    const tenant = RELOCATION_TENANT_ACTIONS.filter((a): a is RelocationTenantAction => this.refusal(a, probe('tenant'), now) === null);
    const manager = RELOCATION_MANAGER_ACTIONS.filter((a): a is RelocationManagerAction => this.refusal(a, probe('manager'), now) === null);
    const overdue = this.status === 'overdue';
    return {
      relocationId: this.input.relocationId,
      householdId: this.input.householdId,
      organizationId: this.input.organizationId,
      tenantUserId: this.input.tenantUserId,
      reason: this.input.reason,
      status: this.status,
      profileSubmitted: this.profileSubmitted,
      // An open offer past its expiry shows as expired (the validator already refuses it).
      offers: this.offers.map((o) => ({ ...o, state: o.state === 'open' && o.expiresAt !== null && o.expiresAt <= now ? 'expired' : o.state })),
      slots: [...this.slots],
      bookedSlot: this.bookedSlot,
      movedAt: this.movedAt,
      endsAt: this.endsAt,
      extensions: [...this.extensions],
      remindersSent: [...this.remindersSent],
      returnedAt: this.returnedAt,
      underRelocation: UNDER_RELOCATION.includes(this.status),
      pendingTasks: [
        ...tenant.filter((a) => a !== 'DeclineOffer').map((action) => ({ role: 'tenant' as const, action, dueAt: null })),
        // The manager's standing options while relocated are tasks only once the stay is ending.
        ...manager
          .filter((a) => a !== 'ExtendRelocation' && (a !== 'ConfirmReturn' || overdue))
          .map((action) => ({ role: 'manager' as const, action, dueAt: action === 'ConfirmReturn' ? this.endsAt : null, overdue })),
      ],
      availableActions: { tenant, manager },
      startedAt: this.startedAt,
      updatedAt: this.updatedAt,
      version: this.version,
    };
  }

  private offerById(offerId: string | undefined): RelocationOffer {
    return this.offers.find((o) => o.offerId === offerId)!;
  }
}

/** The next weekdays after `now`, at 14:00 and 18:00 UTC (9 am and 1 pm in New York in winter). */
export function movingSlots(now: string): MovingSlot[] {
  const slots: MovingSlot[] = [];
  const start = Date.parse(now.slice(0, 10));
  for (let day = 1; slots.length < MOVING_SLOT_WEEKDAYS * 2; day++) {
    const date = new Date(start + day * DAY);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const ymd = date.toISOString().slice(0, 10);
    slots.push({ slotId: `${ymd}-am`, startsAt: `${ymd}T14:00:00.000Z` }, { slotId: `${ymd}-pm`, startsAt: `${ymd}T18:00:00.000Z` });
  }
  return slots;
}

export function roleOf(action: RelocationAction): 'tenant' | 'manager' {
  return (RELOCATION_TENANT_ACTIONS as readonly string[]).includes(action) ? 'tenant' : 'manager';
}
