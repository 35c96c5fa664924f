import { z } from 'zod';

/**
 * Temporary relocation (spec sections 1, 2, 7, 9 and shared/design/workflows.md "Relocation"):
 * one workflow per tenant household per relocation, at most 6 months unless a manager extends it.
 */
export const RELOCATION_STATUSES = [
  'awaiting_profile',
  'awaiting_offer',
  'offered',
  'scheduling',
  'moving_booked',
  'relocated',
  'overdue',
  'returned',
] as const;
export type RelocationStatus = (typeof RELOCATION_STATUSES)[number];
/** The household lives in the temporary unit (the user's `underRelocation`). */
export const UNDER_RELOCATION: readonly RelocationStatus[] = ['relocated', 'overdue'];

/** Spec section 9: temporary relocation up to 6 months. */
export const RELOCATION_MONTHS = 6;
export const RELOCATION_REMINDER_DAYS = [30, 14, 7] as const;
/** Moving slots offered after an accepted unit: the next 10 weekdays, morning and afternoon. */
export const MOVING_SLOT_WEEKDAYS = 10;

/** Spec section 3 "Unit offer": unit number, bedroom type, address. */
export const TemporaryUnit = z.object({
  unitNumber: z.string().trim().min(1, 'Required').max(20),
  bedroomType: z.string().trim().min(1, 'Required').max(40),
  address: z.string().trim().min(1, 'Required').max(300),
});
export type TemporaryUnit = z.infer<typeof TemporaryUnit>;

export const RelocationActor = z.object({
  userId: z.string().uuid(),
  role: z.enum(['tenant', 'manager']),
  impersonatedBy: z.string().uuid().nullable(),
});
export type RelocationActor = z.infer<typeof RelocationActor>;

const Reason = z.string().trim().min(1, 'Please provide a reason.').max(2000);
const Base = z.object({ reason: Reason.optional() });
const Offer = Base.extend({ offerId: z.string().min(1).max(60) });

/** What the tenant household may do (shapes only; the table decides the rest). */
const TENANT_INPUTS = {
  /** The household's profile completion, read by the API when the tenant submits (complete means 100). */
  SubmitProfile: Base.extend({ profileCompletion: z.number().min(0).max(100) }),
  AcceptOffer: Offer,
  DeclineOffer: Offer,
  BookSlot: Base.extend({ slotId: z.string().min(1).max(40) }),
} as const;

/** What the organisation's manager may do. */
const MANAGER_INPUTS = {
  /** The temporary unit and an optional offer expiry (ISO time). */
  OfferTemporaryUnit: Base.extend({ unit: TemporaryUnit, expiresAt: z.string().datetime().optional() }),
  ConfirmMove: Base,
  /** The new end (ISO date) and why. */
  ExtendRelocation: Base.extend({ until: z.string().date() }),
  ConfirmReturn: Base,
} as const;

/**
 * The input of each relocation action, as its Update carries it. Declared by role, so the table's
 * rows cannot give an action to the other role, and the view names each role's actions without
 * importing the table.
 */
export const RELOCATION_INPUTS = { ...TENANT_INPUTS, ...MANAGER_INPUTS };
export type RelocationTenantAction = keyof typeof TENANT_INPUTS;
export type RelocationManagerAction = keyof typeof MANAGER_INPUTS;
export type RelocationInputs = { [A in keyof typeof RELOCATION_INPUTS]: z.infer<(typeof RELOCATION_INPUTS)[A]> };
export type RelocationAction = keyof RelocationInputs;
export type RelocationActionInput<A extends RelocationAction = RelocationAction> = RelocationInputs[A] & { actor: RelocationActor };

export interface RelocationOffer {
  offerId: string;
  unit: TemporaryUnit;
  offeredAt: string;
  expiresAt: string | null;
  state: 'open' | 'accepted' | 'declined' | 'expired';
}

export interface MovingSlot {
  slotId: string;
  startsAt: string;
}

export interface StartRelocationInput {
  relocationId: string;
  householdId: string;
  organizationId: string;
  tenantUserId: string;
  reason: string;
}

export interface RelocationView {
  relocationId: string;
  householdId: string;
  organizationId: string;
  tenantUserId: string;
  reason: string;
  status: RelocationStatus;
  profileSubmitted: boolean;
  offers: RelocationOffer[];
  slots: MovingSlot[];
  bookedSlot: MovingSlot | null;
  movedAt: string | null;
  /** End of the temporary stay (6 months after the move, or the extended date). */
  endsAt: string | null;
  extensions: { until: string; reason: string; at: string }[];
  remindersSent: { daysBefore: number; endsAt: string; sentAt: string }[];
  returnedAt: string | null;
  underRelocation: boolean;
  pendingTasks: { role: 'tenant' | 'manager'; action: RelocationAction; dueAt: string | null; overdue?: boolean }[];
  availableActions: { tenant: RelocationTenantAction[]; manager: RelocationManagerAction[] };
  /** Who did what and when (absent in read-model rows written by an earlier version). */
  history?: { at: string; action: string; by: string; note?: string }[];
  startedAt: string;
  updatedAt: string;
  version: number;
}

export const StartRelocationBody = z.object({
  householdId: z.string().uuid('Invalid household id'),
  reason: z.string().trim().min(1, 'Please provide a reason.').max(2000),
});
export const OfferTemporaryUnitBody = TemporaryUnit.extend({ expiresAt: z.string().datetime().optional() });
export const ExtendBody = z.object({
  until: z.string().date('Enter a valid date'),
  reason: z.string().trim().min(1, 'Please provide a reason.').max(2000),
});
export const BookSlotBody = z.object({
  relocationId: z.string().uuid('Invalid relocation id'),
  slotId: z.string().min(1, 'Required').max(40),
});
