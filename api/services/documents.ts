import { createHash, randomUUID } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import {
  ALLOWED_MIME_TYPES, PAY_STUB_MESSAGES, fileCountProblem, payStubProblem,
  type DocumentContent, type PayFrequency, type UploadFields, type UploadedDocument,
} from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { HttpError, notFound } from '../errors';
import { listDocuments } from './document-list';
import { holdsMarkup } from './file-content';

export interface IncomingFile {
  fileName: string;
  body: Buffer;
}


const blobKey = (householdId: string, documentId: string) => `households/${householdId}/documents/${documentId}`;

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** The id of the i-th file of a keyed upload: the same for every retry of the request. */
function keyedDocumentId(requestKey: string, index: number): string {
  const hex = createHash('sha256').update(`document\n${requestKey}\n${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
/** The opaque file address of the section-3 mapping; content is only served by GetDocument/{id}. */

/** The type by content (magic bytes): the name and the declared type are not trusted. */
export async function sniff(file: IncomingFile): Promise<string> {
  if (file.body.length === 0) throw new HttpError(400, 'validation', 'File is required');
  const type = await fileTypeFromBuffer(file.body);
  if (!type || !(ALLOWED_MIME_TYPES as readonly string[]).includes(type.mime)) throw new HttpError(415, 'invalidFile');
  // A PDF or image that is also a web page (polyglot) would run as one if ever served as HTML.
  if (holdsMarkup(file.body)) throw new HttpError(415, 'invalidFile');
  return type.mime;
}

async function belongs(db: Db, householdId: string, table: 'household_members' | 'household_incomes' | 'household_assets', id: string | null) {
  if (!id) return;
  const row = await db.selectFrom(table).select('id').where('id', '=', id).where('household_id', '=', householdId).executeTakeFirst();
  if (!row) throw notFound();
}

/**
 * UploadDocument / BulkUpload: checks ownership of the linked member, income or asset, the file-count
 * limits of section 5, and each file's content; stores the files in the blob store (private) and the
 * metadata in Postgres. A re-upload over a document needs a reason and replaces it.
 */
export async function uploadDocuments(
  deps: { db: Db; blobs: BlobStore },
  householdId: string,
  uploadedBy: string,
  fields: UploadFields,
  files: IncomingFile[],
  requestKey: string | null = null,
): Promise<UploadedDocument[]> {
  const { db, blobs } = deps;
  // A retried upload (same Idempotency-Key) names its files as the first attempt did: when that one
  // was saved, its documents are the answer; when it died between the file and its row, the retry
  // writes the same file again and then the row, so no file is left without its row.
  const keyedIds = requestKey ? files.map((_, i) => keyedDocumentId(requestKey, i)) : null;
  if (keyedIds) {
    const saved = await db.selectFrom('household_documents').select('id').where('id', 'in', keyedIds).where('household_id', '=', householdId).execute();
    if (saved.length > 0) {
      const all = await listDocuments(db, householdId, {});
      return all.filter((d) => saved.some((r) => r.id === d.id));
    }
  }
  await belongs(db, householdId, 'household_members', fields.memberId);
  await belongs(db, householdId, 'household_incomes', fields.incomeId);
  await belongs(db, householdId, 'household_assets', fields.assetId);
  let replaced: { id: string; blob_key: string | null } | undefined;
  if (fields.replacesDocumentId) {
    replaced = await db.selectFrom('household_documents').select(['id', 'blob_key']).where('id', '=', fields.replacesDocumentId).where('household_id', '=', householdId).executeTakeFirst();
    if (!replaced) throw notFound();
  }
  let existing = db.selectFrom('household_documents').select((eb) => eb.fn.countAll<string>().as('n')).where('household_id', '=', householdId).where('document_type', '=', fields.documentType);
  if (fields.incomeId) existing = existing.where('income_id', '=', fields.incomeId);
  else if (fields.assetId) existing = existing.where('asset_id', '=', fields.assetId);
  else if (fields.memberId) existing = existing.where('member_id', '=', fields.memberId);
  const count = Number((await existing.executeTakeFirstOrThrow()).n) - (replaced ? 1 : 0);
  const problem = fileCountProblem(fields.documentType, count, files.length);
  if (problem) throw new HttpError(problem === 'File is required' ? 400 : 422, problem === 'File is required' ? 'validation' : 'tooManyFiles', problem);
  const payDates = fields.documentType === 'pay_stub' ? await checkPayStubs(db, householdId, fields, files.length, replaced?.id ?? null) : [];

  const types = await Promise.all(files.map(sniff));
  const ids: string[] = [];
  for (const [i, file] of files.entries()) {
    const id = keyedIds?.[i] ?? randomUUID();
    const key = blobKey(householdId, id);
    await blobs.put(key, file.body, types[i]!);
    try {
      await db
        .insertInto('household_documents')
        .values({
          id,
          household_id: householdId,
          member_id: fields.memberId,
          income_id: fields.incomeId,
          asset_id: fields.assetId,
          document_type: fields.documentType,
          file_name: file.fileName.slice(0, 255) || 'document',
          blob_key: key,
          content_type: types[i]!,
          size_bytes: file.body.length,
          uploaded_by: uploadedBy,
          uploaded_at: new Date(),
          review_reason: fields.reason,
          replaces_document_id: fields.replacesDocumentId,
          pay_date: payDates[i] ?? null,
        })
        .execute();
    } catch (error) {
      // The same keyed upload running twice at once (its first attempt's lease ran out): the file
      // is the other's now, and so is the answer.
      if (keyedIds && isUniqueViolation(error)) return uploadDocuments(deps, householdId, uploadedBy, fields, files, requestKey);
      await blobs.delete(key);
      throw error;
    }
    ids.push(id);
  }
  if (replaced) await removeDocument(deps, householdId, replaced.id);
  const all = await listDocuments(db, householdId, {});
  return ids.map((id) => all.find((d) => d.id === id)!);
}

/**
 * Spec section 5: pay stubs are the last 6 consecutive. The new stubs' pay dates (a replacement
 * keeps the date of the stub it replaces unless given one) are checked with those on file for the
 * same income. Stubs on file from before pay dates were recorded are left out of the check.
 * Returns the pay date of each new file.
 */
async function checkPayStubs(db: Db, householdId: string, fields: UploadFields, adding: number, replacedId: string | null): Promise<string[]> {
  let dates = fields.payDates;
  if (dates.length === 0 && replacedId && adding === 1) {
    const replaced = await db.selectFrom('household_documents').select('pay_date').where('id', '=', replacedId).executeTakeFirst();
    dates = replaced?.pay_date ? [replaced.pay_date] : [];
  }
  if (dates.length !== adding) throw new HttpError(400, 'validation', PAY_STUB_MESSAGES.payDateRequired);
  let onFile = db.selectFrom('household_documents').select('pay_date').where('household_id', '=', householdId).where('document_type', '=', 'pay_stub').where('pay_date', 'is not', null);
  onFile = fields.incomeId ? onFile.where('income_id', '=', fields.incomeId) : onFile.where('income_id', 'is', null);
  if (replacedId) onFile = onFile.where('id', '!=', replacedId);
  const existing = (await onFile.execute()).map((r) => r.pay_date);
  const income = fields.incomeId ? await db.selectFrom('household_incomes').select('frequency').where('id', '=', fields.incomeId).executeTakeFirst() : undefined;
  const problem = payStubProblem([...existing, ...dates], (income?.frequency as PayFrequency | undefined) ?? null, new Date().toISOString().slice(0, 10));
  if (problem) throw new HttpError(422, 'validation', problem);
  return dates;
}

export async function removeDocument({ db, blobs }: { db: Db; blobs: BlobStore }, householdId: string, id: string): Promise<void> {
  const row = await db.deleteFrom('household_documents').where('id', '=', id).where('household_id', '=', householdId).returning('blob_key').executeTakeFirst();
  if (!row) throw notFound();
  if (row.blob_key) await blobs.delete(row.blob_key);
}

/** GetDocument/{id}: base64 content and type (spec section 3 document content). */
export async function documentContent({ db, blobs }: { db: Db; blobs: BlobStore }, householdId: string, id: string): Promise<DocumentContent> {
  const row = await db.selectFrom('household_documents').select(['blob_key']).where('id', '=', id).where('household_id', '=', householdId).executeTakeFirst();
  if (!row?.blob_key) throw notFound();
  const object = await blobs.get(row.blob_key);
  if (!object) throw notFound();
  return { fileContent: object.body.toString('base64'), contentType: object.contentType };
}

/** A document's bytes for a download, with the type checked at upload and its file name. */
export async function documentFile({ db, blobs }: { db: Db; blobs: BlobStore }, householdId: string, id: string): Promise<{ body: Buffer; contentType: string; fileName: string }> {
  const row = await db.selectFrom('household_documents').select(['blob_key', 'content_type', 'file_name']).where('id', '=', id).where('household_id', '=', householdId).executeTakeFirst();
  if (!row?.blob_key) throw notFound();
  const object = await blobs.get(row.blob_key);
  if (!object) throw notFound();
  return { body: object.body, contentType: row.content_type, fileName: row.file_name };
}

