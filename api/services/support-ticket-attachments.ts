import { randomUUID } from 'node:crypto';
import type { SupportTicketAttachment } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { notFound } from '../errors';
import type { Session } from '../session';
import { sniff, type IncomingFile } from './documents';
import { ticketAccess } from './support-tickets';

/** Files checked by content and ready to be stored once the ticket or the reply exists. */
export interface CheckedFile extends IncomingFile {
  contentType: string;
}

const blobKey = (ticketId: string, attachmentId: string) => `support-tickets/${ticketId}/attachments/${attachmentId}`;

/**
 * The same upload checks as household documents, so a ticket is no way around them: an
 * empty file is refused, the type is read from the content (PDF and images only) and a PDF or image
 * that is also a web page is refused. Run before the ticket or reply is written, so a refused file
 * saves nothing.
 */
export async function checkAttachments(files: IncomingFile[]): Promise<CheckedFile[]> {
  const types = await Promise.all(files.map(sniff));
  return files.map((f, i) => ({ ...f, contentType: types[i]! }));
}

/** Stores the files (private, in the blob store) as attachments of one thread message. */
export async function saveAttachments(
  deps: { db: Db; blobs: BlobStore },
  ticketId: string,
  messageSeq: number,
  uploadedBy: string,
  files: CheckedFile[],
): Promise<SupportTicketAttachment[]> {
  const saved: SupportTicketAttachment[] = [];
  for (const file of files) {
    const id = randomUUID();
    const key = blobKey(ticketId, id);
    await deps.blobs.put(key, file.body, file.contentType);
    try {
      const row = await deps.db
        .insertInto('support_ticket_attachments')
        .values({
          id,
          ticket_id: ticketId,
          message_seq: messageSeq,
          uploaded_by: uploadedBy,
          // Kept as household documents keep their names (infra/db/schema/household.ts `file_name`).
          file_name: file.fileName.slice(0, 255) || 'attachment',
          content_type: file.contentType,
          size_bytes: file.body.length,
          blob_key: key,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      saved.push(toAttachment(row));
    } catch (error) {
      await deps.blobs.delete(key);
      throw error;
    }
  }
  return saved;
}

const toAttachment = (r: { id: string; message_seq: number; file_name: string; content_type: string; size_bytes: number; uploaded_at: Date }): SupportTicketAttachment => ({
  attachmentId: r.id,
  messageSeq: r.message_seq,
  fileName: r.file_name,
  contentType: r.content_type,
  sizeBytes: r.size_bytes,
  uploadedAt: new Date(r.uploaded_at).toISOString(),
});

/** A ticket's attachments in thread order (the caller has been checked by `ticketAccess`). */
export async function listAttachments(db: Db, ticketId: string): Promise<SupportTicketAttachment[]> {
  const rows = await db
    .selectFrom('support_ticket_attachments')
    .select(['id', 'message_seq', 'file_name', 'content_type', 'size_bytes', 'uploaded_at'])
    .where('ticket_id', '=', ticketId)
    .orderBy('message_seq')
    .orderBy('uploaded_at')
    .orderBy('id')
    .execute();
  return rows.map(toAttachment);
}

/**
 * One attachment's bytes for a download: the ticket's requester, a manager of its organisation or
 * an admin (`ticketAccess`: anyone else 403, an unknown ticket 404); an attachment of another ticket 404.
 */
export async function attachmentFile(deps: { db: Db; blobs: BlobStore }, session: Session, ticketId: string, attachmentId: string) {
  await ticketAccess(deps.db, session, ticketId);
  const row = await deps.db
    .selectFrom('support_ticket_attachments')
    .select(['blob_key', 'content_type', 'file_name'])
    .where('id', '=', attachmentId)
    .where('ticket_id', '=', ticketId)
    .executeTakeFirst();
  if (!row) throw notFound();
  const object = await deps.blobs.get(row.blob_key);
  if (!object) throw notFound();
  return { body: object.body, contentType: row.content_type, fileName: row.file_name };
}
