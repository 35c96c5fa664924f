import { FORM_MESSAGES } from './form-messages';
import { z } from 'zod';
import { LANGUAGES } from './account';
import { LISTING_AREAS } from './opportunity-filter';
import { REQUIRED, ageOn, isoDate, optionalDate, optionalMoney, optionalText, requiredText, todayIso, wholeNumber, money } from './fields';

/** Spec section 3, household member. `self` is the applicant; the rest are relationships to them. */
export const RELATIONSHIPS = [
  'self', 'sister', 'child', 'parent', 'spouse', 'niece', 'daughter', 'brother', 'grandchild', 'grandparent', 'other_adult_member',
] as const;
export const GENDERS = ['male', 'female', 'prefer_not_to_say'] as const;
export const RACES = [
  'american_indian_or_alaska_native', 'white', 'black_or_african_american', 'asian', 'native_hawaiian_or_pacific_islander', 'choose_not_to_provide',
] as const;
export const ETHNICITIES = ['hispanic_or_latino', 'not_hispanic_or_latino'] as const;
export const MARITAL_STATUSES = ['single', 'married', 'divorced', 'separated', 'widowed', 'domestic_partnership'] as const;
export const STUDENT_STATUSES = ['not_a_student', 'full_time', 'part_time'] as const;
export const STUDENT_ELIGIBILITIES = ['not_applicable', 'eligible', 'not_eligible'] as const;

export const MEMBER_MESSAGES = {
  ssnFormat: 'Enter a valid SSN (9 digits, for example 123-45-6789)',
  itinFormat: 'Enter a valid ITIN (9 digits starting with 9, for example 912-70-1234)',
  alienFormat: 'Enter a valid alien registration number (A followed by 8 or 9 digits)',
  identifierRequired: 'Enter at least one of SSN, ITIN or alien registration number',
  applicantAge: 'Applicant must be at least 18 years old',
  headMinor: 'A head of household cannot be a non-emancipated minor',
  phone: 'Phone number must have at least 10 digits',
  email: 'Enter a valid email address',
  raceRequired: 'Select at least one race',
  dateOfBirthFuture: 'Date of birth cannot be in the future',
} as const;

const digits = (v: string) => v.replace(/[\s-]/g, '');
/** SSN: 9 digits, area not 000/666/9xx, group not 00, serial not 0000. */
export const isValidSsn = (v: string) => /^(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4}$/.test(digits(v));
/** ITIN: 9 digits starting with 9, middle group 50–65, 70–88, 90–92 or 94–99. */
export const isValidItin = (v: string) => /^9\d{2}(5[0-9]|6[0-5]|7\d|8[0-8]|9[0-2]|9[4-9])\d{4}$/.test(digits(v));
/** Alien registration number (A-number): optional A, then 8 or 9 digits. */
export const isValidAlienNumber = (v: string) => /^A?\d{8,9}$/i.test(digits(v));
/** The stored form: digits only (A-numbers upper-case with the A). */
export function normalizeIdentifier(kind: 'ssn' | 'itin' | 'alienRegistrationNumber', v: string): string {
  const d = digits(v).toUpperCase();
  return kind === 'alienRegistrationNumber' && !d.startsWith('A') ? `A${d}` : d;
}

const identifier = (check: (v: string) => boolean, message: string) =>
  z
    .string()
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || check(v), message);

export const phone = z.string().trim().refine((v) => v.replace(/\D/g, '').length >= 10, MEMBER_MESSAGES.phone);

const MemberFields = z.object({
  fullName: requiredText(200),
  relationship: z.enum(RELATIONSHIPS, REQUIRED),
  dateOfBirth: isoDate,
  gender: z.enum(GENDERS, REQUIRED),
  ssn: identifier(isValidSsn, MEMBER_MESSAGES.ssnFormat),
  itin: identifier(isValidItin, MEMBER_MESSAGES.itinFormat),
  alienRegistrationNumber: identifier(isValidAlienNumber, MEMBER_MESSAGES.alienFormat),
  /** Set by the server from what is on file (never trusted from the client): an identifier exists already. */
  identifierOnFile: z.boolean().optional(),
  races: z.array(z.enum(RACES), REQUIRED).min(1, MEMBER_MESSAGES.raceRequired),
  ethnicity: z.enum(ETHNICITIES, REQUIRED),
  maritalStatus: z.enum(MARITAL_STATUSES, REQUIRED),
  disability: z.boolean().default(false),
  studentStatus: z.enum(STUDENT_STATUSES, REQUIRED),
  studentEligibility: z.enum(STUDENT_ELIGIBILITIES, REQUIRED),
  emancipatedMinor: z.boolean().default(false),
  pregnant: z.boolean().default(false),
  pregnancyChildCount: z.preprocess((v) => (v === '' || v === null ? undefined : v), wholeNumber.optional()),
  expectedDeliveryDate: optionalDate,
  headOfHousehold: z.boolean().default(false),
  email: z.union([z.literal(''), z.string().trim().email(MEMBER_MESSAGES.email).max(254)]).nullish().transform((v) => v || null),
  mobile: z.union([z.literal(''), phone]).nullish().transform((v) => v || null),
  preferredLanguage: z.enum(LANGUAGES).default('en'),
});

/** Section 5 rules across fields. `today` is passed so tests and the server agree on "now". */
export function memberRules(today: () => string = () => todayIso()) {
  return (m: z.infer<typeof MemberFields>, ctx: z.RefinementCtx) => {
    if (!m.ssn && !m.itin && !m.alienRegistrationNumber && !m.identifierOnFile) {
      ctx.addIssue({ code: 'custom', path: ['ssn'], message: MEMBER_MESSAGES.identifierRequired });
    }
    if (m.dateOfBirth > today()) ctx.addIssue({ code: 'custom', path: ['dateOfBirth'], message: MEMBER_MESSAGES.dateOfBirthFuture });
    const age = ageOn(m.dateOfBirth, today());
    if (m.relationship === 'self' && age < 18) {
      ctx.addIssue({ code: 'custom', path: ['dateOfBirth'], message: MEMBER_MESSAGES.applicantAge });
    }
    if (m.headOfHousehold && age < 18 && !m.emancipatedMinor) {
      ctx.addIssue({ code: 'custom', path: ['headOfHousehold'], message: MEMBER_MESSAGES.headMinor });
    }
    if (m.relationship === 'self' && !m.email) ctx.addIssue({ code: 'custom', path: ['email'], message: REQUIRED });
    if (m.pregnant) {
      if (m.pregnancyChildCount === undefined || m.pregnancyChildCount < 1) {
        ctx.addIssue({ code: 'custom', path: ['pregnancyChildCount'], message: REQUIRED });
      }
      if (!m.expectedDeliveryDate) ctx.addIssue({ code: 'custom', path: ['expectedDeliveryDate'], message: REQUIRED });
    }
  };
}

export const MemberInput = MemberFields.superRefine(memberRules());
export type MemberInput = z.infer<typeof MemberInput>;
export type MemberForm = z.input<typeof MemberInput>;

/** What the API returns for a member: identifiers only as their last 4 digits. */
export interface MemberView extends Omit<MemberInput, 'ssn' | 'itin' | 'alienRegistrationNumber' | 'identifierOnFile'> {
  id: string;
  ssnLast4: string | null;
  itinLast4: string | null;
  alienRegistrationNumberLast4: string | null;
  /** A proof document (identity) of this member is on file and not rejected (section 5: required per member). */
  proofOnFile: boolean;
  age: number;
}

/** Spec section 3 address: living address, mailing address unless the same, local community board. */
export const AddressInput = z
  .object({
    line1: requiredText(200),
    line2: optionalText(200),
    city: requiredText(100),
    state: requiredText(50),
    zip: z.string(REQUIRED).trim().regex(/^\d{5}(-\d{4})?$/, FORM_MESSAGES.zip),
    mailingSameAsLiving: z.boolean().default(true),
    mailingLine1: optionalText(200),
    mailingLine2: optionalText(200),
    mailingCity: optionalText(100),
    mailingState: optionalText(50),
    mailingZip: optionalText(10),
    communityBoard: optionalText(50),
  })
  .superRefine((a, ctx) => {
    if (a.mailingSameAsLiving) return;
    if (!a.mailingLine1) ctx.addIssue({ code: 'custom', path: ['mailingLine1'], message: FORM_MESSAGES.mailingLine1 });
    if (!a.mailingCity) ctx.addIssue({ code: 'custom', path: ['mailingCity'], message: REQUIRED });
    if (!a.mailingState) ctx.addIssue({ code: 'custom', path: ['mailingState'], message: REQUIRED });
    if (!a.mailingZip || !/^\d{5}(-\d{4})?$/.test(a.mailingZip)) ctx.addIssue({ code: 'custom', path: ['mailingZip'], message: FORM_MESSAGES.zip });
  });
export type AddressInput = z.infer<typeof AddressInput>;
export type AddressForm = z.input<typeof AddressInput>;

/** Spec section 3 housing choices. */
export const HOUSING_INTERESTS = ['reRental', 'section8', 'supportiveHousing', 'mitchellLama', 'publicHousing'] as const;
export const UNIT_SIZES = ['studio', 'one_bedroom', 'two_bedroom', 'three_bedroom', 'four_plus_bedroom'] as const;
export const COUNTIES = LISTING_AREAS;
export const SET_ASIDES = ['senior', 'veteran', 'disability', 'homeless', 'artist'] as const;
export const ACCESSIBILITY_TAGS = ['mobility', 'hearing', 'vision'] as const;
export const RENTAL_ASSISTANCE_TYPES = ['section8_voucher', 'cityfheps', 'fheps', 'hasa', 'other'] as const;

export const AdditionalPreferencesInput = z.object({
  interests: z.object(Object.fromEntries(HOUSING_INTERESTS.map((k) => [k, z.boolean().default(false)])) as Record<(typeof HOUSING_INTERESTS)[number], z.ZodDefault<z.ZodBoolean>>),
  preferredCounties: z.array(z.enum(COUNTIES)).max(COUNTIES.length).default([]),
  unitSize: z.preprocess((v) => (v === '' ? null : v), z.enum(UNIT_SIZES).nullish()).transform((v) => v ?? null),
  setAsides: z.array(z.enum(SET_ASIDES)).max(SET_ASIDES.length).default([]),
  accessibility: z.array(z.enum(ACCESSIBILITY_TAGS)).max(ACCESSIBILITY_TAGS.length).default([]),
  pet: z.boolean().default(false),
});
export type AdditionalPreferencesInput = z.infer<typeof AdditionalPreferencesInput>;

export const RentalAssistanceInput = z
  .object({
    id: z.string().uuid(FORM_MESSAGES.invalidId).optional(),
    hasAssistance: z.boolean(),
    type: z.enum(RENTAL_ASSISTANCE_TYPES).nullish().transform((v) => v ?? null),
    agency: optionalText(200),
    active: z.boolean().default(false),
    startDate: optionalDate,
    amount: optionalMoney,
    tenantShare: optionalMoney,
    proofDocumentId: z.string().uuid(FORM_MESSAGES.invalidId).nullish().transform((v) => v ?? null),
  })
  .superRefine((r, ctx) => {
    if (!r.hasAssistance) return;
    if (!r.type) ctx.addIssue({ code: 'custom', path: ['type'], message: REQUIRED });
    if (!r.agency) ctx.addIssue({ code: 'custom', path: ['agency'], message: REQUIRED });
    if (r.amount === null) ctx.addIssue({ code: 'custom', path: ['amount'], message: REQUIRED });
  });
export type RentalAssistanceInput = z.infer<typeof RentalAssistanceInput>;

/** The income and asset questions (spec section 4): answering NO deletes every entry. */
export const QuestionAnswer = z.object({
  answer: z.boolean({ error: FORM_MESSAGES.answerRequired }),
  /** The client asked the user first; a NO without it is refused so nothing is lost by accident. */
  confirmed: z.boolean().default(false),
});
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;

export const EligibilityAssessmentInput = z.object({
  householdSize: wholeNumber.refine((n) => n >= 1, FORM_MESSAGES.atLeastOneMember),
  totalIncome: money,
  livesInNyc: z.boolean().default(true),
});
export type EligibilityAssessmentInput = z.infer<typeof EligibilityAssessmentInput>;

/** Profile completion sections and their weights (sum 100; spec section 4: complete means 100). */
export const COMPLETION_WEIGHTS = { members: 25, address: 15, income: 20, assets: 15, housingChoices: 10, documents: 15 } as const;
export type CompletionSection = keyof typeof COMPLETION_WEIGHTS;
export interface ProfileCompletion {
  percent: number;
  sections: Record<CompletionSection, boolean>;
  /** Why each incomplete section is incomplete (message codes of domain/household PROFILE_GAPS). */
  missing: ProfileGap[];
}
export const PROFILE_GAPS = [
  'noMembers', 'noHeadOfHousehold', 'memberIncomplete', 'memberProofMissing', 'noAddress', 'incomeQuestionUnanswered', 'noValidIncome',
  'allZeroIncome', 'assetQuestionUnanswered', 'noAssets', 'noHousingChoices', 'documentsMissing',
] as const;
export type ProfileGap = (typeof PROFILE_GAPS)[number];
