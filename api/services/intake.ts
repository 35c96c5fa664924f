import type { z } from 'zod';
import { AssetFlagInput, QuestionAnswer, REQUIRED } from '../../domain';
import { INTAKE_FORMS, type IntakeField, type IntakeForm, type IntakeQuestion, type IntakeSection, type IntakeTurnBody, type IntakeView } from '../../domain/intake';
import type { BlobStore } from '../../infra/blobs';
import type { KeyRing } from '../../infra/crypto';
import { openJson, sealJson } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { computeCompletion, refreshCompletion, requiredDocuments } from '../../infra/db/repositories/profile-completion';
import type { AnswerReader } from '../../infra/translate/chat-model';
import { HttpError } from '../errors';
import type { Session } from '../plugins/auth';
import { editableHousehold, ensureOwnHousehold } from './household-access';
import { saveAssets, answerAssetFlag } from './household-assets';
import { saveIncome } from './household-income';
import { createMember } from './household-members';
import { answerIncomeQuestion, getProfileRow, saveAddress, savePreferences } from './household-profile';
import { suggestFaq } from './faq';
import { uploadDocuments, type IncomingFile } from './documents';

/**
 * The intake assistant's conversation (issue 19 item 2; domain/intake.ts says what it asks). Its
 * state is kept per user in `intake_conversations` (sealed: it holds answers not saved yet), so it
 * pauses and resumes anywhere. Each answer is checked against the form's own schema (the form's
 * message on bad input); an entry is saved only after the resident confirms it, through the same
 * service as the form, and the profile's completion is refreshed as after a form.
 */
type Step = IntakeQuestion['step'];
interface State {
  section: IntakeSection;
  step: Step;
  fieldIndex: number;
  draft: Record<string, unknown>;
  /** Documents the resident chose to upload later (`incomeId:documentType`). */
  skipped: string[];
}

/** Forms of the conversation: the domain's forms plus the two household-wide yes/no questions. */
const FORMS: Record<string, { schema: z.ZodType; fields: IntakeField[] }> = {
  ...INTAKE_FORMS,
  incomeQuestion: { schema: QuestionAnswer, fields: [{ name: 'answer', kind: 'yesno' }] },
  assetQuestion: { schema: AssetFlagInput, fields: [{ name: 'hasAny', kind: 'yesno' }] },
};
const LOOPS = new Set<IntakeSection>(['member', 'income', 'asset']);
const NEXT: Record<IntakeSection, IntakeSection> = {
  member: 'address', address: 'incomeQuestion', incomeQuestion: 'income', income: 'assetQuestion', assetQuestion: 'asset', asset: 'housingChoices', housingChoices: 'documents', documents: 'done', done: 'done',
};

export interface IntakeDeps {
  db: Db;
  blobs: BlobStore;
  keys: KeyRing;
  /** The optional language model that reads free answers (INTAKE_MODEL_URL); null: none. */
  reader?: AnswerReader | null;
}

const refuse = (message: string, path?: string) => {
  const error = new HttpError(400, 'validation', message);
  if (path) Object.assign(error, { issues: [{ path, message }] });
  return error;
};

/** What the schema sees for a form's answers: helpers dropped, lists turned into the form's shapes. */
function toInput(form: string, draft: Record<string, unknown>): Record<string, unknown> {
  const input = Object.fromEntries(Object.entries(draft).filter(([k]) => !k.startsWith('_')));
  if (form === 'housingChoices') {
    const chosen = Array.isArray(draft.interests) ? (draft.interests as string[]) : [];
    input.interests = Object.fromEntries(chosen.map((k) => [k, true]));
  }
  if (form === 'asset') input.memberId = null;
  if (form === 'incomeQuestion' || form === 'assetQuestion') input.confirmed = true;
  return input;
}

const askable = (field: IntakeField, draft: Record<string, unknown>) => !field.when || field.when(draft);

function nextFieldIndex(form: string, draft: Record<string, unknown>, from: number): number {
  const fields = FORMS[form]!.fields;
  for (let i = from; i < fields.length; i++) if (askable(fields[i]!, draft)) return i;
  return -1;
}

/** An answer as the form would send it, by the kind of question (the web sends these shapes). */
function coerce(field: IntakeField, answer: unknown, members: { id: string }[]): unknown {
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
const FORMS_ANSWER_REQUIRED = 'Answer required';

/** The form schema's message for this field, if the answer so far is wrong there. */
function fieldProblem(form: string, draft: Record<string, unknown>, name: string): string | null {
  if (name.startsWith('_')) {
    const field = FORMS[form]!.fields.find((f) => f.name === name)!;
    return field.options?.includes(String(draft[name])) ? null : REQUIRED;
  }
  const parsed = FORMS[form]!.schema.safeParse(toInput(form, draft));
  if (parsed.success) return null;
  return parsed.error.issues.find((i) => i.path[0] === name)?.message ?? null;
}

export class IntakeConversation {
  constructor(
    private readonly deps: IntakeDeps,
    private readonly session: Session,
  ) {}

  private async household() {
    return ensureOwnHousehold(this.deps.db, this.session);
  }

  private async load(householdId: string): Promise<{ state: State; paused: boolean }> {
    const row = await this.deps.db.selectFrom('intake_conversations').select(['state', 'paused', 'household_id']).where('user_id', '=', this.session.userId).executeTakeFirst();
    if (row && row.household_id === householdId) return { state: openJson<State>(row.state), paused: row.paused };
    return { state: await this.enter('member', householdId, []), paused: false };
  }

  private async store(householdId: string, state: State, paused = false): Promise<void> {
    const values = { user_id: this.session.userId, household_id: householdId, state: sealJson(state), paused, updated_at: new Date() };
    await this.deps.db
      .insertInto('intake_conversations')
      .values(values)
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ household_id: values.household_id, state: values.state, paused, updated_at: values.updated_at }))
      .execute();
  }

  /** The first step of a section: "add another / change?" when something is on file, else its first question. */
  private async enter(section: IntakeSection, householdId: string, skipped: string[]): Promise<State> {
    const db = this.deps.db;
    const fresh = (s: IntakeSection): State => ({ section: s, step: 'field', fieldIndex: nextFieldIndex(s, {}, 0), draft: {}, skipped });
    const more = (s: IntakeSection): State => ({ section: s, step: 'more', fieldIndex: 0, draft: {}, skipped });
    const profile = await getProfileRow(db, householdId);
    switch (section) {
      case 'member':
      case 'income':
      case 'asset': {
        if (section === 'income' && profile?.has_income !== true) return this.enter('assetQuestion', householdId, skipped);
        if (section === 'asset' && profile?.has_assets !== true) return this.enter('housingChoices', householdId, skipped);
        const table = section === 'member' ? 'household_members' : section === 'income' ? 'household_incomes' : 'household_assets';
        const count = await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('household_id', '=', householdId).executeTakeFirstOrThrow();
        return Number(count.n) > 0 ? more(section) : fresh(section);
      }
      case 'address':
        return profile?.address ? more(section) : fresh(section);
      case 'housingChoices':
        return profile?.preferences ? more(section) : fresh(section);
      case 'incomeQuestion':
      case 'assetQuestion':
        return fresh(section);
      case 'documents': {
        const next = (await requiredDocuments(db, householdId)).find((d) => !d.uploaded && !skipped.includes(`${d.incomeId}:${d.documentType}`));
        return next ? { section, step: 'upload', fieldIndex: 0, draft: { incomeId: next.incomeId, documentType: next.documentType }, skipped } : this.enter('done', householdId, skipped);
      }
      case 'done':
        return { section: 'done', step: 'done', fieldIndex: 0, draft: {}, skipped };
    }
  }

  private async view(householdId: string, state: State, paused: boolean, extra: Partial<IntakeView> = {}): Promise<IntakeView> {
    const db = this.deps.db;
    const question: IntakeQuestion = { section: state.section, step: state.step };
    if (state.step === 'field') {
      const { when: _when, ...field } = FORMS[state.section]!.fields[state.fieldIndex]!;
      question.field = field;
      if (field.kind === 'member') {
        const rows = await db.selectFrom('household_members').select(['id', 'full_name']).where('household_id', '=', householdId).orderBy('created_at').execute();
        question.members = rows.map((r) => ({ id: r.id, name: r.full_name }));
      }
    }
    if (state.step === 'confirm') {
      const entry = toInput(state.section, state.draft);
      delete entry.confirmed;
      for (const k of ['ssn', 'itin', 'alienRegistrationNumber']) if (typeof entry[k] === 'string') entry[k] = `••••${(entry[k] as string).replace(/\W/g, '').slice(-4)}`;
      question.entry = entry;
    }
    if (state.step === 'more') {
      const table = state.section === 'member' ? 'household_members' : state.section === 'income' ? 'household_incomes' : state.section === 'asset' ? 'household_assets' : null;
      question.onFile = table ? Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('household_id', '=', householdId).executeTakeFirstOrThrow()).n) : 1;
    }
    if (state.step === 'upload') {
      const item = (await requiredDocuments(db, householdId)).find((d) => d.incomeId === state.draft.incomeId && d.documentType === state.draft.documentType);
      if (item) question.document = { documentType: item.documentType, incomeId: item.incomeId, memberName: item.memberName, incomeType: item.incomeType };
    }
    const completion = (await computeCompletion(db, householdId)).percent;
    return { question, paused, completion, ...extra };
  }

  /** GET: where the conversation is; a paused one resumes here. */
  async current(): Promise<IntakeView> {
    const household = await this.household();
    const { state, paused } = await this.load(household.id);
    if (paused) await this.store(household.id, state, false);
    else await this.store(household.id, state);
    return this.view(household.id, state, false);
  }

  async turn(body: IntakeTurnBody): Promise<IntakeView> {
    const household = await this.household();
    const { state } = await this.load(household.id);
    const h = household.id;
    switch (body.action) {
      case 'pause':
        await this.store(h, state, true);
        return this.view(h, state, true);
      case 'restart': {
        const first = await this.enter('member', h, []);
        await this.store(h, first);
        return this.view(h, first, false);
      }
      case 'ask': {
        const faq = await suggestFaq(this.deps.db, body.question);
        return this.view(h, state, false, { faq: faq.map((q) => ({ id: q.id, question: q.question, answer: q.answer })) });
      }
      case 'skip':
        return this.skip(h, state);
      case 'answer':
        return this.answer(h, state, body.answer);
      case 'confirm':
        return this.confirm(h, state, body.confirm, body.change);
    }
  }

  private async skip(h: string, state: State): Promise<IntakeView> {
    if (state.step === 'upload') {
      const next = await this.enter('documents', h, [...state.skipped, `${String(state.draft.incomeId)}:${String(state.draft.documentType)}`]);
      await this.store(h, next);
      return this.view(h, next, false);
    }
    const field = state.step === 'field' ? FORMS[state.section]!.fields[state.fieldIndex] : undefined;
    if (!field?.optional) throw refuse(field?.kind === 'yesno' ? FORMS_ANSWER_REQUIRED : REQUIRED, field?.name);
    const draft = { ...state.draft };
    delete draft[field.name];
    return this.advance(h, { ...state, draft });
  }

  private async answer(h: string, state: State, answer: unknown): Promise<IntakeView> {
    if (state.step === 'more') {
      if (typeof answer !== 'boolean') throw refuse(FORMS_ANSWER_REQUIRED);
      const next: State = answer
        ? { section: state.section, step: 'field', fieldIndex: nextFieldIndex(state.section, {}, 0), draft: {}, skipped: state.skipped }
        : await this.enter(NEXT[state.section], h, state.skipped);
      await this.store(h, next);
      return this.view(h, next, false);
    }
    if (state.step !== 'field') throw refuse(state.step === 'confirm' ? 'Please confirm the entry or change it' : state.step === 'upload' ? 'Please upload the file or skip it' : 'Nothing is asked now');
    const field = FORMS[state.section]!.fields[state.fieldIndex]!;
    const members = field.kind === 'member' ? await this.deps.db.selectFrom('household_members').select('id').where('household_id', '=', h).execute() : [];
    let value: unknown;
    try {
      value = coerce(field, answer, members);
    } catch (error) {
      value = await this.readFree(field, answer, error);
    }
    // A free answer the deterministic reading does not understand may be read by the model; the
    // value it gives still goes through the form's checks and the resident's confirmation.
    if (this.deps.reader && typeof answer === 'string' && field.kind !== 'text' && field.kind !== 'member' && fieldProblem(state.section, { ...state.draft, [field.name]: value }, field.name)) {
      const read = await this.deps.reader.read({ field: field.name, kind: field.kind, options: field.options }, answer);
      if (read !== null) value = read;
    }
    const draft = { ...state.draft, [field.name]: value };
    if (field.optional && (value === '' || (Array.isArray(value) && value.length === 0))) delete draft[field.name];
    // A changed helper or discriminator drops the answers that depended on it.
    for (const f of FORMS[state.section]!.fields) if (f.when && !askable(f, draft)) delete draft[f.name];
    const problem = fieldProblem(state.section, draft, field.name);
    if (problem) throw refuse(problem, field.name);
    return this.advance(h, { ...state, draft });
  }

  /** The next question of the form, or the entry shown back for confirmation. */
  private async advance(h: string, state: State): Promise<IntakeView> {
    const fields = FORMS[state.section]!.fields;
    // Changing one answer goes back to the entry, unless a question it opened is still unanswered.
    const index = state.draft.__editing
      ? fields.findIndex((f) => askable(f, state.draft) && !f.optional && state.draft[f.name] === undefined)
      : nextFieldIndex(state.section, state.draft, state.fieldIndex + 1);
    const next: State = index === -1 ? { ...state, step: 'confirm', fieldIndex: 0, draft: withoutEditing(state.draft) } : { ...state, step: 'field', fieldIndex: index };
    await this.store(h, next);
    return this.view(h, next, false);
  }

  private async confirm(h: string, state: State, yes: boolean, change?: string): Promise<IntakeView> {
    if (state.step !== 'confirm') throw refuse('Nothing is waiting for your confirmation');
    if (!yes) {
      const fields = FORMS[state.section]!.fields;
      const index = change ? fields.findIndex((f) => f.name === change && askable(f, state.draft)) : nextFieldIndex(state.section, state.draft, 0);
      if (index === -1) throw refuse(REQUIRED, 'change');
      // Changing one answer comes back here; changing from the start walks the form again.
      const next: State = { ...state, step: 'field', fieldIndex: index, draft: change ? { ...state.draft, __editing: true } : state.draft };
      await this.store(h, next);
      return this.view(h, next, false);
    }
    const form = state.section as IntakeForm | 'incomeQuestion' | 'assetQuestion';
    const parsed = FORMS[form]!.schema.safeParse(toInput(form, state.draft));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      await this.backTo(h, state, String(issue.path[0] ?? ''));
      throw refuse(issue.message, String(issue.path[0] ?? ''));
    }
    const household = await editableHousehold(this.deps.db, this.session);
    try {
      await this.save(household.id, form, parsed.data);
    } catch (error) {
      if (error instanceof HttpError && error.code === 'validation') {
        const path = (error as { issues?: { path: string }[] }).issues?.[0]?.path;
        await this.backTo(h, state, path ?? '');
      }
      throw error;
    }
    await refreshCompletion(this.deps.db, household.id);
    const data = parsed.data as Record<string, unknown>;
    let next: State;
    if (LOOPS.has(state.section)) next = { section: state.section, step: 'more', fieldIndex: 0, draft: {}, skipped: state.skipped };
    else if (form === 'incomeQuestion') next = await this.enter(data.answer ? 'income' : 'assetQuestion', h, state.skipped);
    else if (form === 'assetQuestion') next = await this.enter(data.hasAny ? 'asset' : 'housingChoices', h, state.skipped);
    else next = await this.enter(NEXT[state.section], h, state.skipped);
    await this.store(h, next);
    return this.view(h, next, false, { saved: form });
  }

  private async readFree(field: IntakeField, answer: unknown, error: unknown): Promise<unknown> {
    if (!this.deps.reader || typeof answer !== 'string' || field.kind !== 'yesno') throw error;
    const read = await this.deps.reader.read({ field: field.name, kind: field.kind, options: field.options }, answer);
    if (read === null) throw error;
    return read;
  }

  /** After a refusal on save: back to the question the message is about (the first one if none). */
  private async backTo(h: string, state: State, path: string): Promise<void> {
    const fields = FORMS[state.section]!.fields;
    const named = fields.findIndex((f) => f.name === path && askable(f, state.draft));
    const index = named === -1 ? nextFieldIndex(state.section, state.draft, 0) : named;
    await this.store(h, { ...state, step: 'field', fieldIndex: index, draft: { ...state.draft, __editing: true } });
  }

  private async save(h: string, form: string, data: unknown): Promise<void> {
    const db = this.deps.db;
    switch (form) {
      case 'member':
        await createMember(db, this.deps.keys, h, data as Parameters<typeof createMember>[3]);
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

  /** The document asked for, uploaded through My Documents' upload (same checks and limits). */
  async upload(files: IncomingFile[], payDates: string[]): Promise<IntakeView> {
    const household = await this.household();
    const { state } = await this.load(household.id);
    if (state.step !== 'upload') throw refuse('No document is asked for now');
    const editable = await editableHousehold(this.deps.db, this.session);
    const item = (await requiredDocuments(this.deps.db, editable.id)).find((d) => d.incomeId === state.draft.incomeId && d.documentType === state.draft.documentType);
    if (!item) throw refuse('No document is asked for now');
    await uploadDocuments(
      { db: this.deps.db, blobs: this.deps.blobs },
      editable.id,
      this.session.userId,
      { documentType: item.documentType, memberId: item.memberId, incomeId: item.incomeId, assetId: null, replacesDocumentId: null, reason: null, payDates },
      files,
    );
    await refreshCompletion(this.deps.db, editable.id);
    const next = await this.enter('documents', editable.id, state.skipped);
    await this.store(editable.id, next);
    return this.view(editable.id, next, false, { saved: 'document' });
  }
}

function withoutEditing(draft: Record<string, unknown>): Record<string, unknown> {
  const { __editing: _e, ...rest } = draft;
  return rest;
}
