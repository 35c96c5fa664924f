import type { z } from 'zod';
import { AssetFlagInput, QuestionAnswer, REQUIRED } from '../../domain';
import { INTAKE_FORMS, type IntakeField, type IntakeQuestion, type IntakeSection } from '../../domain/intake';
import { HttpError } from '../errors';

// The intake conversation's forms and how an answer is read against them: pure, no database.

export type Step = IntakeQuestion['step'];

/** Where a conversation stands: its section, the step in it, and the entry answered so far. */
export interface State {
  section: IntakeSection;
  step: Step;
  fieldIndex: number;
  draft: Record<string, unknown>;
  /** Documents the resident chose to upload later (`incomeId:documentType`). */
  skipped: string[];
}

/** Forms of the conversation: the domain's forms plus the two household-wide yes/no questions. */
export const FORMS: Record<string, { schema: z.ZodType; fields: IntakeField[] }> = {
  ...INTAKE_FORMS,
  incomeQuestion: { schema: QuestionAnswer, fields: [{ name: 'answer', kind: 'yesno' }] },
  assetQuestion: { schema: AssetFlagInput, fields: [{ name: 'hasAny', kind: 'yesno' }] },
};
/** Sections that take one entry after another ("add another?"). */
export const LOOPS = new Set<IntakeSection>(['member', 'income', 'asset']);
/** The section each one leads to. */
export const NEXT: Record<IntakeSection, IntakeSection> = {
  member: 'address', address: 'incomeQuestion', incomeQuestion: 'income', income: 'assetQuestion', assetQuestion: 'asset', asset: 'housingChoices', housingChoices: 'documents', documents: 'done', done: 'done',
};

/** A 400 naming the question the message is about. */
export const refuse = (message: string, path?: string) => {
  const error = new HttpError(400, 'validation', message);
  if (path) Object.assign(error, { issues: [{ path, message }] });
  return error;
};

/** What the schema sees for a form's answers: helpers dropped, lists turned into the form's shapes. */
export function toInput(form: string, draft: Record<string, unknown>): Record<string, unknown> {
  const input = Object.fromEntries(Object.entries(draft).filter(([k]) => !k.startsWith('_')));
  if (form === 'housingChoices') {
    const chosen = Array.isArray(draft.interests) ? (draft.interests as string[]) : [];
    input.interests = Object.fromEntries(chosen.map((k) => [k, true]));
  }
  if (form === 'asset') input.memberId = null;
  if (form === 'incomeQuestion' || form === 'assetQuestion') input.confirmed = true;
  return input;
}

export const askable = (field: IntakeField, draft: Record<string, unknown>) => !field.when || field.when(draft);

export function nextFieldIndex(form: string, draft: Record<string, unknown>, from: number): number {
  const fields = FORMS[form]!.fields;
  for (let i = from; i < fields.length; i++) if (askable(fields[i]!, draft)) return i;
  return -1;
}

/** An answer as the form would send it, by the kind of question (the web sends these shapes). */
export function coerce(field: IntakeField, answer: unknown, members: { id: string }[]): unknown {
  switch (field.kind) {
    case 'yesno':
      if (typeof answer === 'boolean') return answer;
      if (answer === 'yes' || answer === 'true') return true;
      if (answer === 'no' || answer === 'false') return false;
      throw refuse(FORMS_ANSWER_REQUIRED, field.name);
    case 'number': {
      const n = typeof answer === 'number' ? answer : typeof answer === 'string' && answer.trim() !== '' ? Number(answer.replace(/[$,\s]/g, '')) : Number.NaN;
      return Number.isFinite(n) ? n : answer;
    }
    case 'multi':
      if (Array.isArray(answer)) return answer.map(String);
      return typeof answer === 'string' ? answer.split(',').map((s) => s.trim()).filter(Boolean) : answer;
    case 'member':
      if (typeof answer !== 'string' || !members.some((m) => m.id === answer)) throw refuse(REQUIRED, field.name);
      return answer;
    default:
      return typeof answer === 'string' ? answer.trim() : answer;
  }
}
export const FORMS_ANSWER_REQUIRED = 'Answer required';

/** The form schema's message for this field, if the answer so far is wrong there. */
export function fieldProblem(form: string, draft: Record<string, unknown>, name: string): string | null {
  if (name.startsWith('_')) {
    const field = FORMS[form]!.fields.find((f) => f.name === name)!;
    return field.options?.includes(String(draft[name])) ? null : REQUIRED;
  }
  const parsed = FORMS[form]!.schema.safeParse(toInput(form, draft));
  if (parsed.success) return null;
  return parsed.error.issues.find((i) => i.path[0] === name)?.message ?? null;
}


/** The draft without the mark that an answer is being changed from the confirmation. */
export function withoutEditing(draft: Record<string, unknown>): Record<string, unknown> {
  const { __editing: _e, ...rest } = draft;
  return rest;
}
