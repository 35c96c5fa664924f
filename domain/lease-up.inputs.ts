import { z } from 'zod';

/**
 * What a lease-up action carries: the actor, the fields people fill in, and each action's input
 * schema, validated by the API and again by the workflow's Update validator.
 */

/** Who is acting: filled in by the API from the signed-in session, never by the client. */
export const Actor = z.object({
  userId: z.string().uuid(),
  role: z.enum(['applicant', 'manager']),
  /** Set when an ambassador or manager acts for this user (spec section 6, impersonation). */
  impersonatedBy: z.string().uuid().nullable(),
});
export type Actor = z.infer<typeof Actor>;

const IsoTime = z.string().datetime({ offset: true, message: 'Invalid date and time' });
const Reason = z.string().trim().min(1, 'Please provide a reason.').max(2000);

/** A document item the manager rejects or asks for, and the applicant's answer to it. */
export const DocumentItem = z.object({
  item: z.string().trim().min(1, 'Please name the document.').max(200),
  documentId: z.string().uuid().optional(),
  reason: z.string().trim().min(1).max(2000).optional(),
});
export type DocumentItem = z.infer<typeof DocumentItem>;

/** A unit as offered (spec section 3, unit offer: unit number, bedroom type, address). */
export const OfferedUnit = z.object({
  unitId: z.string().uuid(),
  unitNumber: z.string().max(40),
  bedroomType: z.string().max(60),
  address: z.string().max(300),
});
export type OfferedUnit = z.infer<typeof OfferedUnit>;

/** A stored signature as the API hands it to the workflow (the image itself stays in blob storage). */
export const StoredSignature = z.object({
  signatureKey: z.string().max(300),
  ipAddress: z.string().max(64),
  signerName: z.string().max(200),
  /** Who signs: the head (their user id, the default) or an adult member (member id). */
  signerId: z.string().max(100).optional(),
});
export type StoredSignature = z.infer<typeof StoredSignature>;

/** Every action may carry a reason (kept in the history); some require one (the action table says which). */
const Base = z.object({ reason: Reason.optional() });
const Documents = Base.extend({ documents: z.array(DocumentItem).max(50) });
const Slot = Base.extend({ slot: IsoTime });
const Signed = Base.extend({ signature: StoredSignature.optional() });

/** What the applicant household may do (spec section 4): the rows of domain/lease-up.applicant.ts. */
const APPLICANT_INPUTS = {
  SubmitProfile: Base,
  SubmitAdditionalDocuments: Documents,
  ProvideConsentForScreening: Base,
  DenyConsentForScreening: Base,
  ScheduleAppointment: Slot,
  RescheduleAppointment: Slot,
  RespondToUnitOffer: Base.extend({ offerId: z.string().max(40), accept: z.boolean() }),
  SignTIC: Signed,
  SignLeaseLetter: Signed,
  Appeal: Base.extend({ documents: z.array(DocumentItem).max(20).optional() }),
  UpdateInfo: Base.extend({ householdSize: z.number().int().min(1).max(20), householdIncome: z.number().min(0).max(10_000_000) }),
  Withdraw: Base,
} as const;

/** What the organisation's manager may do (spec section 4): the rows of domain/lease-up.manager.ts. */
const MANAGER_INPUTS = {
  MarkAsComplete: Base,
  RequestConsentForScreening: Base,
  RejectApplication: Base,
  RejectDocuments: Documents,
  /** The document types asked for, a note and the due date. */
  RequestAdditionalDocuments: Base.extend({ documentTypes: z.array(z.string().trim().min(1).max(200)).max(50), note: z.string().trim().max(2000).optional(), dueAt: IsoTime.optional() }),
  ProceedToAppointmentScheduling: Base.extend({ slots: z.array(IsoTime).max(50) }),
  /** The units with their details (the API reads them from the opportunity) and an optional expiry. */
  OfferUnit: Base.extend({ units: z.array(OfferedUnit).max(20), expiresAt: IsoTime.optional() }),
  ProceedWithUnitOffer: Base,
  GenerateIncomeCertification: Base,
  ApproveIncomeCertification: Base,
  DenyIncomeCertification: Base,
  CompleteLeaseSigning: Base,
  GrantAppeal: Base,
  DenyAppeal: Base,
  /** A reminder to the household, with the manager's optional note (also sent in bulk from the inbox). */
  SendReminder: Base.extend({ note: z.string().trim().max(2000).optional() }),
} as const;

/**
 * The input of each lease-up action, named as in the spec: each action is the workflow Update of its
 * name and reads only its own fields. Shapes only: what the case's state allows is the action
 * table's business (domain/lease-up.table.ts). Declared by role, so the table's rows cannot give an
 * action to the other role, and the view can name each role's actions without importing the table.
 */
export const LEASE_UP_INPUTS = { ...APPLICANT_INPUTS, ...MANAGER_INPUTS };

export type ApplicantAction = keyof typeof APPLICANT_INPUTS;
export type ManagerAction = keyof typeof MANAGER_INPUTS;
export type LeaseUpInputs = { [A in keyof typeof LEASE_UP_INPUTS]: z.infer<(typeof LEASE_UP_INPUTS)[A]> };
export type LeaseUpAction = keyof LeaseUpInputs;
/** What an Update of `A` carries: its own input and the actor. */
export type LeaseUpActionInput<A extends LeaseUpAction = LeaseUpAction> = LeaseUpInputs[A] & { actor: Actor };

/**
 * What the web app sends for an action: the action's input without what only the API fills in
 * (unit details are named by id, the signature is stored first).
 */
export const OfferUnitBody = Base.extend({ unitIds: z.array(z.string().uuid()).max(20), expiresAt: IsoTime.optional() });
export type OfferUnitBody = z.infer<typeof OfferUnitBody>;
