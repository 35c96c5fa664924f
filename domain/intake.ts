import { z } from 'zod';
import { AddressInput, COUNTIES, ETHNICITIES, GENDERS, HOUSING_INTERESTS, MARITAL_STATUSES, MemberInput, RACES, RELATIONSHIPS, STUDENT_ELIGIBILITIES, STUDENT_STATUSES, UNIT_SIZES, AdditionalPreferencesInput } from './household';
import { IncomeInput, PAY_FREQUENCIES } from './income';
import { AssetInput } from './assets';

/**
 * The intake assistant (spec sections 1 and 7, `/api/intake`): a conversation that
 * walks a resident through the household profile one question at a time. The questions come from
 * the same zod schemas as the profile forms (each answer is checked against the form's schema, so
 * a bad answer gets the form's own message) and every entry is shown back and confirmed before it
 * is saved through the forms' own services. It asks and records; it never says whether anyone
 * qualifies for anything.
 */
export const INTAKE_SECTIONS = ['member', 'address', 'incomeQuestion', 'income', 'assetQuestion', 'asset', 'housingChoices', 'documents', 'done'] as const;
export type IntakeSection = (typeof INTAKE_SECTIONS)[number];

export type IntakeFieldKind = 'text' | 'date' | 'choice' | 'multi' | 'yesno' | 'number' | 'member';

export interface IntakeField {
  /** The schema's field name (the value is written there), or a helper of the conversation (`_idKind`). */
  name: string;
  kind: IntakeFieldKind;
  options?: readonly string[];
  optional?: boolean;
  /** Asked only when this holds for the answers so far. */
  when?: (draft: Record<string, unknown>) => boolean;
}

const IDENTIFIER_KINDS = ['ssn', 'itin', 'alienRegistrationNumber'] as const;
/** The income types the assistant takes (the others have forms of their own in the profile). */
export const INTAKE_INCOME_TYPES = ['employment', 'social_security', 'ssi', 'pension', 'veterans', 'disability', 'unemployment', 'public_assistance', 'other'] as const;
/** The asset kinds the assistant takes. */
export const INTAKE_ASSET_KINDS = ['CashBalance', 'OtherAssets'] as const;

export const INTAKE_FORMS = {
  member: {
    schema: MemberInput as z.ZodType,
    fields: [
      { name: 'fullName', kind: 'text' },
      { name: 'relationship', kind: 'choice', options: RELATIONSHIPS },
      { name: 'dateOfBirth', kind: 'date' },
      { name: 'gender', kind: 'choice', options: GENDERS },
      { name: '_idKind', kind: 'choice', options: IDENTIFIER_KINDS },
      { name: 'ssn', kind: 'text', when: (d) => d._idKind === 'ssn' },
      { name: 'itin', kind: 'text', when: (d) => d._idKind === 'itin' },
      { name: 'alienRegistrationNumber', kind: 'text', when: (d) => d._idKind === 'alienRegistrationNumber' },
      { name: 'races', kind: 'multi', options: RACES },
      { name: 'ethnicity', kind: 'choice', options: ETHNICITIES },
      { name: 'maritalStatus', kind: 'choice', options: MARITAL_STATUSES },
      { name: 'studentStatus', kind: 'choice', options: STUDENT_STATUSES },
      { name: 'studentEligibility', kind: 'choice', options: STUDENT_ELIGIBILITIES },
      { name: 'email', kind: 'text', optional: true, when: (d) => d.relationship === 'self' },
      { name: 'headOfHousehold', kind: 'yesno' },
      { name: 'disability', kind: 'yesno' },
    ],
  },
  address: {
    schema: AddressInput as z.ZodType,
    fields: [
      { name: 'line1', kind: 'text' },
      { name: 'line2', kind: 'text', optional: true },
      { name: 'city', kind: 'text' },
      { name: 'state', kind: 'text' },
      { name: 'zip', kind: 'text' },
      { name: 'mailingSameAsLiving', kind: 'yesno' },
      { name: 'mailingLine1', kind: 'text', when: (d) => d.mailingSameAsLiving === false },
      { name: 'mailingCity', kind: 'text', when: (d) => d.mailingSameAsLiving === false },
      { name: 'mailingState', kind: 'text', when: (d) => d.mailingSameAsLiving === false },
      { name: 'mailingZip', kind: 'text', when: (d) => d.mailingSameAsLiving === false },
    ],
  },
  income: {
    schema: IncomeInput as z.ZodType,
    fields: [
      { name: 'memberId', kind: 'member' },
      { name: 'incomeType', kind: 'choice', options: INTAKE_INCOME_TYPES },
      { name: 'employerName', kind: 'text', when: (d) => d.incomeType === 'employment' },
      { name: 'startDate', kind: 'date', when: (d) => d.incomeType === 'employment' },
      { name: 'amount', kind: 'number' },
      { name: 'frequency', kind: 'choice', options: PAY_FREQUENCIES },
    ],
  },
  asset: {
    schema: AssetInput as z.ZodType,
    fields: [
      { name: 'kind', kind: 'choice', options: INTAKE_ASSET_KINDS },
      { name: 'description', kind: 'text', when: (d) => d.kind === 'OtherAssets' },
      { name: 'value', kind: 'number', when: (d) => d.kind === 'OtherAssets' },
      { name: 'amount', kind: 'number', when: (d) => d.kind === 'CashBalance' },
    ],
  },
  housingChoices: {
    schema: AdditionalPreferencesInput as z.ZodType,
    fields: [
      { name: 'unitSize', kind: 'choice', options: UNIT_SIZES },
      { name: 'preferredCounties', kind: 'multi', options: COUNTIES, optional: true },
      { name: 'interests', kind: 'multi', options: HOUSING_INTERESTS, optional: true },
      { name: 'pet', kind: 'yesno' },
    ],
  },
} satisfies Record<string, { schema: z.ZodType; fields: IntakeField[] }>;
export type IntakeForm = keyof typeof INTAKE_FORMS;

/** What the assistant asks now. */
export interface IntakeQuestion {
  section: IntakeSection;
  /**
   * `field`: one field of a form; `confirm`: the entry shown back, saved only on yes; `more`: add
   * another (member, income, asset) or change what is on file; `question`: the household-wide
   * income or asset question; `upload`: a required document; `done`: nothing left to ask.
   */
  step: 'field' | 'confirm' | 'more' | 'question' | 'upload' | 'done';
  field?: IntakeField & { when?: never };
  /** Member choices (`member` fields): id and name. */
  members?: { id: string; name: string }[];
  /** `confirm`: the answers as they will be saved (identifiers masked). */
  entry?: Record<string, unknown>;
  /** `upload`: the document asked for. */
  document?: { documentType: string; incomeId: string | null; memberName: string; incomeType: string | null };
  /** `more` on sections with something on file: how many entries (members, incomes, assets) or 1. */
  onFile?: number;
}

export interface IntakeView {
  question: IntakeQuestion;
  paused: boolean;
  /** The profile's completion (the same figure as the profile page). */
  completion: number;
  /** What was just saved, when the last answer saved something. */
  saved?: IntakeForm | 'incomeQuestion' | 'assetQuestion' | 'document';
  /** FAQ answers to a question asked in the conversation. */
  faq?: { id: string; question: Record<string, string>; answer: Record<string, string> }[];
}

/** One body for every turn. */
export const IntakeTurnBody = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('answer'), answer: z.unknown() }),
    z.object({ action: z.literal('skip') }),
    z.object({ action: z.literal('confirm'), confirm: z.boolean({ error: 'Please answer yes or no' }), change: z.string().max(60).optional() }),
    z.object({ action: z.literal('ask'), question: z.string({ error: 'Please write your question' }).trim().min(2, 'Please write your question').max(500, 'A question can be at most 500 characters') }),
    z.object({ action: z.literal('pause') }),
    z.object({ action: z.literal('restart') }),
  ],
  { error: 'Please send an answer, a confirmation, a question, pause or restart' },
);
export type IntakeTurnBody = z.infer<typeof IntakeTurnBody>;
