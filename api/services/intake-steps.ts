import { REQUIRED, requiredDocKey } from '../../domain';
import type { IntakeField, IntakeForm, IntakeView } from '../../domain/intake';
import { refreshCompletion } from '../../infra/db/repositories/profile-completion';
import { HttpError } from '../errors';
import { editableHousehold } from './household-access';
import { answerAssetFlag, saveAssets } from './household-assets';
import { saveIncome } from './household-income';
import { createMember } from './household-members';
import { answerIncomeQuestion, saveAddress, savePreferences } from './household-profile';
import { FORMS, FORMS_ANSWER_REQUIRED, LOOPS, NEXT, askable, coerce, fieldProblem, nextFieldIndex, refuse, toInput, withoutEditing, type State } from './intake-forms';
import { enterSection, moveTo, storeState, type IntakeContext } from './intake-state';

// The resident's moves in the intake conversation: skip, answer, confirm or change an entry. Each
// answer is checked against the form's own schema (the form's message on bad input); an entry is
// saved only after the resident confirms it, through the same service as the form.

export async function skip(ctx: IntakeContext, h: string, state: State): Promise<IntakeView> {
  if (state.step === 'upload') {
    return moveTo(ctx, h, await enterSection(ctx.deps.db, 'documents', h, [...state.skipped, requiredDocKey(state.draft)]));
  }
  const field = state.step === 'field' ? FORMS[state.section]!.fields[state.fieldIndex] : undefined;
  if (!field?.optional) throw refuse(field?.kind === 'yesno' ? FORMS_ANSWER_REQUIRED : REQUIRED, field?.name);
  const draft = { ...state.draft };
  delete draft[field.name];
  return advance(ctx, h, { ...state, draft });
}

export async function answer(ctx: IntakeContext, h: string, state: State, given: unknown): Promise<IntakeView> {
  if (state.step === 'more') {
    if (typeof given !== 'boolean') throw refuse(FORMS_ANSWER_REQUIRED);
    const next: State = given
      ? { section: state.section, step: 'field', fieldIndex: nextFieldIndex(state.section, {}, 0), draft: {}, skipped: state.skipped }
      : await enterSection(ctx.deps.db, NEXT[state.section], h, state.skipped);
    return moveTo(ctx, h, next);
  }
  if (state.step !== 'field') throw refuse(state.step === 'confirm' ? 'Please confirm the entry or change it' : state.step === 'upload' ? 'Please upload the file or skip it' : 'Nothing is asked now');
  const field = FORMS[state.section]!.fields[state.fieldIndex]!;
  const members = field.kind === 'member' ? await ctx.deps.db.selectFrom('household_members').select('id').where('household_id', '=', h).execute() : [];
  let value: unknown;
  try {
    value = coerce(field, given, members);
  } catch (error) {
    value = await readFree(ctx, field, given, error);
  }
  // A free answer the deterministic reading does not understand may be read by the model; the
  // value it gives still goes through the form's checks and the resident's confirmation.
  const reader = ctx.deps.reader;
  if (reader && typeof given === 'string' && field.kind !== 'text' && field.kind !== 'member' && fieldProblem(state.section, { ...state.draft, [field.name]: value }, field.name)) {
    const read = await reader.read({ field: field.name, kind: field.kind, options: field.options }, given);
    if (read !== null) value = read;
  }
  const draft = { ...state.draft, [field.name]: value };
  if (field.optional && (value === '' || (Array.isArray(value) && value.length === 0))) delete draft[field.name];
  // A changed helper or discriminator drops the answers that depended on it.
  for (const f of FORMS[state.section]!.fields) if (f.when && !askable(f, draft)) delete draft[f.name];
  const problem = fieldProblem(state.section, draft, field.name);
  if (problem) throw refuse(problem, field.name);
  return advance(ctx, h, { ...state, draft });
}

/** The next question of the form, or the entry shown back for confirmation. */
async function advance(ctx: IntakeContext, h: string, state: State): Promise<IntakeView> {
  const fields = FORMS[state.section]!.fields;
  // Changing one answer goes back to the entry, unless a question it opened is still unanswered.
  const index = state.draft.__editing
    ? fields.findIndex((f) => askable(f, state.draft) && !f.optional && state.draft[f.name] === undefined)
    : nextFieldIndex(state.section, state.draft, state.fieldIndex + 1);
  return moveTo(ctx, h, index === -1 ? { ...state, step: 'confirm', fieldIndex: 0, draft: withoutEditing(state.draft) } : { ...state, step: 'field', fieldIndex: index });
}

export async function confirm(ctx: IntakeContext, h: string, state: State, yes: boolean, change?: string): Promise<IntakeView> {
  if (state.step !== 'confirm') throw refuse('Nothing is waiting for your confirmation');
  if (!yes) return changeEntry(ctx, h, state, change);
  const form = state.section as IntakeForm | 'incomeQuestion' | 'assetQuestion';
  const parsed = FORMS[form]!.schema.safeParse(toInput(form, state.draft));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    await backTo(ctx, h, state, String(issue.path[0] ?? ''));
    throw refuse(issue.message, String(issue.path[0] ?? ''));
  }
  const household = await editableHousehold(ctx.deps.db, ctx.session);
  try {
    await save(ctx, household.id, form, parsed.data);
  } catch (error) {
    if (error instanceof HttpError && error.code === 'validation') {
      const path = (error as { issues?: { path: string }[] }).issues?.[0]?.path;
      await backTo(ctx, h, state, path ?? '');
    }
    throw error;
  }
  await refreshCompletion(ctx.deps.db, household.id);
  const data = parsed.data as Record<string, unknown>;
  const db = ctx.deps.db;
  let next: State;
  if (LOOPS.has(state.section)) next = { section: state.section, step: 'more', fieldIndex: 0, draft: {}, skipped: state.skipped };
  else if (form === 'incomeQuestion') next = await enterSection(db, data.answer ? 'income' : 'assetQuestion', h, state.skipped);
  else if (form === 'assetQuestion') next = await enterSection(db, data.hasAny ? 'asset' : 'housingChoices', h, state.skipped);
  else next = await enterSection(db, NEXT[state.section], h, state.skipped);
  return moveTo(ctx, h, next, { saved: form });
}

/** "No, change it": one named answer (which comes back here), or the form again from its start. */
async function changeEntry(ctx: IntakeContext, h: string, state: State, change?: string): Promise<IntakeView> {
  const fields = FORMS[state.section]!.fields;
  const index = change ? fields.findIndex((f) => f.name === change && askable(f, state.draft)) : nextFieldIndex(state.section, state.draft, 0);
  if (index === -1) throw refuse(REQUIRED, 'change');
  return moveTo(ctx, h, { ...state, step: 'field', fieldIndex: index, draft: change ? { ...state.draft, __editing: true } : state.draft });
}

async function readFree(ctx: IntakeContext, field: IntakeField, given: unknown, error: unknown): Promise<unknown> {
  const reader = ctx.deps.reader;
  if (!reader || typeof given !== 'string' || field.kind !== 'yesno') throw error;
  const read = await reader.read({ field: field.name, kind: field.kind, options: field.options }, given);
  if (read === null) throw error;
  return read;
}

/** After a refusal on save: back to the question the message is about (the first one if none). */
async function backTo(ctx: IntakeContext, h: string, state: State, path: string): Promise<void> {
  const fields = FORMS[state.section]!.fields;
  const named = fields.findIndex((f) => f.name === path && askable(f, state.draft));
  const index = named === -1 ? nextFieldIndex(state.section, state.draft, 0) : named;
  await storeState(ctx, h, { ...state, step: 'field', fieldIndex: index, draft: { ...state.draft, __editing: true } });
}

/** Saves a confirmed entry through the same service as its form. */
async function save({ deps }: IntakeContext, h: string, form: string, data: unknown): Promise<void> {
  const db = deps.db;
  switch (form) {
    case 'member':
      await createMember(db, deps.keys, h, data as Parameters<typeof createMember>[3]);
      return;
    case 'address':
      await saveAddress(db, h, data as Parameters<typeof saveAddress>[2]);
      return;
    case 'incomeQuestion':
      await answerIncomeQuestion(db, h, data as Parameters<typeof answerIncomeQuestion>[2]);
      return;
    case 'income':
      await saveIncome(db, h, data as Parameters<typeof saveIncome>[2]);
      return;
    case 'assetQuestion':
      await answerAssetFlag(db, h, data as Parameters<typeof answerAssetFlag>[2]);
      return;
    case 'asset':
      await saveAssets(db, h, [data as Parameters<typeof saveAssets>[2][number]]);
      return;
    case 'housingChoices':
      await savePreferences(db, h, data as Parameters<typeof savePreferences>[2]);
      return;
  }
}
