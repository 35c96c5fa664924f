import { ApplicationFailure } from '@temporalio/activity';
import { EXTRACTION_MESSAGES, readFields, type StoredExtraction } from '../domain/extraction';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import { sealJson } from '../infra/data-keys';
import { UnreadableDocument, readDocument } from '../infra/extraction/read-document';

/**
 * The extraction workflow's activity: reads the document's file from the blob
 * store, its text (PDF text or OCR) and figures, and stores them sealed. Returns only whether it
 * did: the figures never enter the workflow's history. A document deleted meanwhile is 'gone'; a
 * type that cannot be read (HEIC) fails for good, anything else is retried by the workflow.
 */
export async function extractDocument(db: Db, blobs: BlobStore, { extractionId }: { extractionId: string }): Promise<'ready' | 'gone'> {
  const row = await db
    .selectFrom('document_extractions as e')
    .innerJoin('household_documents as d', 'd.id', 'e.document_id')
    .select(['e.document_type', 'd.blob_key', 'd.content_type'])
    .where('e.id', '=', extractionId)
    .executeTakeFirst();
  if (!row?.blob_key) return 'gone';
  const object = await blobs.get(row.blob_key);
  if (!object) return 'gone';
  let read;
  try {
    read = await readDocument(object.body, row.content_type);
  } catch (error) {
    if (error instanceof UnreadableDocument) throw ApplicationFailure.nonRetryable(error.message, 'UnreadableDocument');
    throw error;
  }
  const stored: StoredExtraction = { source: read.source, lines: read.lines, extracted: readFields(row.document_type, read.lines) };
  await db
    .updateTable('document_extractions')
    .set({ status: 'ready', result_sealed: sealJson(stored), failure: null, finished_at: new Date() })
    .where('id', '=', extractionId)
    .execute();
  return 'ready';
}

/** After the last attempt: the resident is told to enter the figures themselves. */
export async function markExtractionFailed(db: Db, { extractionId }: { extractionId: string }): Promise<void> {
  await db
    .updateTable('document_extractions')
    .set({ status: 'failed', result_sealed: null, failure: EXTRACTION_MESSAGES.unreadable, finished_at: new Date() })
    .where('id', '=', extractionId)
    .where('status', '=', 'pending')
    .execute();
}
