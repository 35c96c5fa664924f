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

export const RELOCATION_TENANT_ACTIONS = ['SubmitProfile', 'AcceptOffer', 'DeclineOffer', 'BookSlot'] as const;
export const RELOCATION_MANAGER_ACTIONS = ['OfferTemporaryUnit', 'ConfirmMove', 'ExtendRelocation', 'ConfirmReturn'] as const;
export type RelocationTenantAction = (typeof RELOCATION_TENANT_ACTIONS)[number];
export type RelocationManagerAction = (typeof RELOCATION_MANAGER_ACTIONS)[number];
export type RelocationAction = RelocationTenantAction | RelocationManagerAction;
export const RelocationActionName = z.enum([...RELOCATION_TENANT_ACTIONS, ...RELOCATION_MANAGER_ACTIONS]);

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

export const RelocationActionInput = z.object({
  actor: RelocationActor,
  offerId: z.string().min(1).max(60).optional(),
  slotId: z.string().min(1).max(40).optional(),
  unit: TemporaryUnit.optional(),
  /** Offer expiry (ISO time); OfferTemporaryUnit. */
  expiresAt: z.string().datetime().optional(),
  /** ExtendRelocation: the new end (ISO date). */
  until: z.string().date().optional(),
  reason: z.string().trim().min(1, 'Please provide a reason.').max(2000).optional(),
});
export type RelocationActionInput = z.infer<typeof RelocationActionInput>;

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
  startedAt: string;
  updatedAt: string;
  version: number;
}

export const StartRelocationBody = z.object({
  householdId: z.string().uuid('Invalid household id'),
  reason: z.string().trim().min(1, 'Please provide a reason.').max(2000),
});
export const OfferUnitBody = TemporaryUnit.extend({ expiresAt: z.string().datetime().optional() });
export const ExtendBody = z.object({
  until: z.string().date('Enter a valid date'),
  reason: z.string().trim().min(1, 'Please provide a reason.').max(2000),
});
export const BookSlotBody = z.object({
  relocationId: z.string().uuid('Invalid relocation id'),
  slotId: z.string().min(1, 'Required').max(40),
});

/** Adds calendar months in UTC (31 Aug + 6 months is 28/29 Feb, not 3 Mar). */
export function addMonthsUtc(iso: string, months: number): string {
  const d = new Date(iso);
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString();
}
