import type { IntakeQuestion, IntakeSection, IntakeView } from '../../domain/intake';
import { requiredDocKey } from '../../domain/documents';
import type { BlobStore } from '../../infra/blobs';
import type { KeyRing } from '../../infra/crypto';
import { openJson, sealJson } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { computeCompletion, requiredDocuments } from '../../infra/db/repositories/profile-completion';
import type { AnswerReader } from '../../infra/translate/chat-model';
import type { Session } from '../session';
import { getProfileRow } from './household-profile';
import { FORMS, nextFieldIndex, toInput, type State } from './intake-forms';

// The intake conversation's stored state: kept per user in `intake_conversations`, sealed (it
// holds answers not saved yet), so it pauses and resumes anywhere; and the question it shows.

export interface IntakeDeps {
  db: Db;
  blobs: BlobStore;
  keys: KeyRing;
  /** The optional language model that reads free answers (INTAKE_MODEL_URL); null: none. */
  reader?: AnswerReader | null;
}

/** One resident's conversation: the services it uses and who is talking. */
export interface IntakeContext {
  deps: IntakeDeps;
  session: Session;
}

export async function loadState({ deps, session }: IntakeContext, householdId: string): Promise<{ state: State; paused: boolean }> {
  const row = await deps.db.selectFrom('intake_conversations').select(['state', 'paused', 'household_id']).where('user_id', '=', session.userId).executeTakeFirst();
  if (row && row.household_id === householdId) return { state: openJson<State>(row.state), paused: row.paused };
  return { state: await enterSection(deps.db, 'member', householdId, []), paused: false };
}

export async function storeState({ deps, session }: IntakeContext, householdId: string, state: State, paused = false): Promise<void> {
  const values = { user_id: session.userId, household_id: householdId, state: sealJson(state), paused, updated_at: new Date() };
  await deps.db
    .insertInto('intake_conversations')
    .values(values)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ household_id: values.household_id, state: values.state, paused, updated_at: values.updated_at }))
    .execute();
}

/** Stores the next state and shows its question (the conversation is not paused). */
export async function moveTo(ctx: IntakeContext, householdId: string, next: State, extra: Partial<IntakeView> = {}): Promise<IntakeView> {
  await storeState(ctx, householdId, next);
  return viewOf(ctx.deps.db, householdId, next, false, extra);
}

const ENTRY_TABLES = { member: 'household_members', income: 'household_incomes', asset: 'household_assets' } as const;

async function entriesOnFile(db: Db, table: (typeof ENTRY_TABLES)[keyof typeof ENTRY_TABLES], householdId: string): Promise<number> {
  return Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('household_id', '=', householdId).executeTakeFirstOrThrow()).n);
}

/** The first step of a section: "add another / change?" when something is on file, else its first question. */
export async function enterSection(db: Db, section: IntakeSection, householdId: string, skipped: string[]): Promise<State> {
  const fresh = (s: IntakeSection): State => ({ section: s, step: 'field', fieldIndex: nextFieldIndex(s, {}, 0), draft: {}, skipped });
  const more = (s: IntakeSection): State => ({ section: s, step: 'more', fieldIndex: 0, draft: {}, skipped });
  const profile = await getProfileRow(db, householdId);
  switch (section) {
    case 'member':
    case 'income':
    case 'asset': {
      if (section === 'income' && profile?.has_income !== true) return enterSection(db, 'assetQuestion', householdId, skipped);
      if (section === 'asset' && profile?.has_assets !== true) return enterSection(db, 'housingChoices', householdId, skipped);
      return (await entriesOnFile(db, ENTRY_TABLES[section], householdId)) > 0 ? more(section) : fresh(section);
    }
    case 'address':
      return profile?.address ? more(section) : fresh(section);
    case 'housingChoices':
      return profile?.preferences ? more(section) : fresh(section);
    case 'incomeQuestion':
    case 'assetQuestion':
      return fresh(section);
    case 'documents': {
      const next = (await requiredDocuments(db, householdId)).find((d) => !d.uploaded && !skipped.includes(requiredDocKey(d)));
      return next
        ? { section, step: 'upload', fieldIndex: 0, draft: { incomeId: next.incomeId, memberId: next.memberId, documentType: next.documentType }, skipped }
        : enterSection(db, 'done', householdId, skipped);
    }
    case 'done':
      return { section: 'done', step: 'done', fieldIndex: 0, draft: {}, skipped };
  }
}

/** The question a state asks, with what it needs to be shown (members to pick, the entry to confirm...). */
export async function viewOf(db: Db, householdId: string, state: State, paused: boolean, extra: Partial<IntakeView> = {}): Promise<IntakeView> {
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
    const table = state.section === 'member' || state.section === 'income' || state.section === 'asset' ? ENTRY_TABLES[state.section] : null;
    question.onFile = table ? await entriesOnFile(db, table, householdId) : 1;
  }
  if (state.step === 'upload') {
    const item = (await requiredDocuments(db, householdId)).find((d) => requiredDocKey(d) === requiredDocKey(state.draft));
    if (item) question.document = { documentType: item.documentType, incomeId: item.incomeId, memberName: item.memberName, incomeType: item.incomeType };
  }
  const completion = (await computeCompletion(db, householdId)).percent;
  return { question, paused, completion, ...extra };
}
