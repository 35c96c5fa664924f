import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import {
  EXTRACTABLE_DOCUMENT_TYPES, EXTRACTION_MESSAGES, employerNameDiffers,
  type AssetInput, type ExtractableDocumentType, type ExtractedEmployerView, type ExtractionView, type IncomeView, type PayStubFields, type SaveExtractedInput,
} from '../../domain';
import type { StoredExtraction } from '../../domain/extraction';
import { openJson } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { documentExtractionWorkflowId } from '../../infra/temporal/ids';
import { HttpError, notFound } from '../errors';
import { saveAssets } from './household-assets';
import { listIncome, saveIncome } from './household-income';

/**
 * Figures read from a household's bank statements and pay stubs: the request
 * starts a small workflow whose activity reads the file (never on the request path); the reading
 * is stored sealed and proposed to the resident, and only what the resident confirms is saved,
 * through the same services (and schemas, and messages) as the asset and income forms.
 */
export interface ExtractionDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

type Row = {
  id: string;
  document_id: string;
  document_type: ExtractableDocumentType;
  status: 'pending' | 'ready' | 'failed';
  result_sealed: string | null;
  failure: string | null;
  confirmed_at: Date | null;
};

const columns = ['id', 'document_id', 'document_type', 'status', 'result_sealed', 'failure', 'confirmed_at'] as const;

function stored(row: Row): StoredExtraction | null {
  return row.status === 'ready' && row.result_sealed ? openJson<StoredExtraction>(JSON.parse(row.result_sealed)) : null;
}

function view(row: Row): ExtractionView {
  const result = stored(row);
  return {
    id: row.id,
    documentId: row.document_id,
    documentType: row.document_type,
    status: row.status,
    source: result?.source ?? null,
    fields: result?.extracted.fields ?? null,
    confirmedAt: row.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
    failure: row.failure,
  };
}

async function documentOf(db: Db, householdId: string, documentId: string) {
  const doc = await db
    .selectFrom('household_documents')
    .select(['id', 'document_type', 'income_id', 'asset_id'])
    .where('id', '=', documentId)
    .where('household_id', '=', householdId)
    .executeTakeFirst();
  if (!doc) throw notFound();
  return doc;
}

async function rowOf(db: Db, householdId: string, documentId: string): Promise<Row> {
  const row = await db.selectFrom('document_extractions').select(columns).where('household_id', '=', householdId).where('document_id', '=', documentId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * /api/v1/account-details: read this document's figures. Answers at once with the reading as it
 * stands: pending (a workflow reads it), ready, or failed. A failed reading is tried again; a
 * pending or ready one is left alone (asking twice starts nothing new).
 */
export async function requestExtraction(deps: ExtractionDeps, householdId: string, documentId: string): Promise<ExtractionView> {
  const { db } = deps;
  const doc = await documentOf(db, householdId, documentId);
  if (!(EXTRACTABLE_DOCUMENT_TYPES as readonly string[]).includes(doc.document_type)) throw new HttpError(422, 'validation', EXTRACTION_MESSAGES.notExtractable);
  await db
    .insertInto('document_extractions')
    .values({ id: randomUUID(), household_id: householdId, document_id: documentId, document_type: doc.document_type as ExtractableDocumentType, status: 'pending' })
    .onConflict((oc) => oc.column('document_id').doNothing())
    .execute();
  await db
    .updateTable('document_extractions')
    .set({ status: 'pending', failure: null, result_sealed: null, finished_at: null, requested_at: new Date() })
    .where('document_id', '=', documentId)
    .where('status', '=', 'failed')
    .execute();
  const row = await rowOf(db, householdId, documentId);
  if (row.status === 'pending') {
    await deps.temporal.workflow.start('documentExtraction', {
      workflowId: documentExtractionWorkflowId(row.id),
      taskQueue: deps.taskQueue,
      // A retry after a failure runs again; two requests at once share the one run.
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{ extractionId: row.id }],
    });
  }
  return view(row);
}

/** GetAiExtractedData: the reading of one document (404 when none was asked for). */
export async function getExtraction(db: Db, householdId: string, documentId: string): Promise<ExtractionView> {
  return view(await rowOf(db, householdId, documentId));
}

/** GetJsonData: the reading with the text lines it was read from (for checking a figure against its line). */
export async function getExtractionJson(db: Db, householdId: string, documentId: string): Promise<ExtractionView & { lines: StoredExtraction['lines'] }> {
  const row = await rowOf(db, householdId, documentId);
  return { ...view(row), lines: stored(row)?.lines ?? [] };
}

/**
 * GetExtractedEmployer: the employer read from a pay stub next to the name saved on the income the
 * stub belongs to; `differs` asks the section-5 question (update the saved name?).
 */
export async function extractedEmployer(db: Db, householdId: string, documentId: string): Promise<ExtractedEmployerView> {
  const doc = await documentOf(db, householdId, documentId);
  if (doc.document_type !== 'pay_stub') throw new HttpError(422, 'validation', EXTRACTION_MESSAGES.notExtractable);
  const row = await rowOf(db, householdId, documentId);
  const fields = stored(row)?.extracted.fields as PayStubFields | undefined;
  const income = doc.income_id ? (await listIncome(db, householdId)).find((i) => i.id === doc.income_id) : undefined;
  const saved = income && 'employerName' in income ? income.employerName : null;
  const onPayStub = fields?.employerName.value ?? null;
  return {
    documentId,
    onPayStub,
    confidence: fields?.employerName.confidence ?? 0,
    savedEmployerName: saved,
    incomeId: doc.income_id,
    differs: saved !== null && employerNameDiffers(saved, onPayStub),
  };
}

/**
 * SaveAiExtractedData(Multiple): the figures as confirmed. Every entry is checked before anything
 * is written (the document is the household's, its reading is ready, and a bank statement saves a
 * bank account, a pay stub an employment income); then each is saved and its document linked to it.
 */
export async function saveExtracted(db: Db, householdId: string, inputs: SaveExtractedInput[]): Promise<{ documentId: string; asset?: AssetInput & { id: string }; income?: IncomeView }[]> {
  for (const input of inputs) {
    const doc = await documentOf(db, householdId, input.documentId);
    const row = await rowOf(db, householdId, input.documentId);
    if (row.status !== 'ready') throw new HttpError(409, 'validation', EXTRACTION_MESSAGES.notReady);
    const fits = doc.document_type === 'bank_statement' ? input.asset?.kind === 'BankAccounts' : input.income?.incomeType === 'employment';
    if (!fits) throw new HttpError(422, 'validation', EXTRACTION_MESSAGES.wrongEntry);
  }
  const out: { documentId: string; asset?: AssetInput & { id: string }; income?: IncomeView }[] = [];
  for (const input of inputs) {
    if (input.asset) {
      const [asset] = await saveAssets(db, householdId, [input.asset]);
      await link(db, householdId, input.documentId, { asset_id: asset!.id });
      out.push({ documentId: input.documentId, asset: asset! });
    } else if (input.income) {
      const income = await saveIncome(db, householdId, input.income);
      await link(db, householdId, input.documentId, { income_id: income.id });
      out.push({ documentId: input.documentId, income });
    }
  }
  return out;
}

async function link(db: Db, householdId: string, documentId: string, to: { asset_id: string } | { income_id: string }) {
  await db.updateTable('household_documents').set(to).where('id', '=', documentId).where('household_id', '=', householdId).execute();
  await db.updateTable('document_extractions').set({ confirmed_at: new Date() }).where('document_id', '=', documentId).where('household_id', '=', householdId).execute();
}
