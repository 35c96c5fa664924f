import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';

/** A PNG starts with these eight bytes; anything else is refused as a signature image. */
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A signature drawn on a pad or a typed name rendered by the browser stays well under this. */
export const MAX_SIGNATURE_BYTES = 512 * 1024;

export type SignatureKind = 'drawn' | 'typed';

function signatureKey(userId: string): string {
  return `users/${userId}/signature.png`;
}

/** Decodes `data:image/png;base64,...` or bare base64 to a PNG buffer; null when it is not one. */
export function decodeSignaturePng(signatureBase64: string): Buffer | null {
  const bare = signatureBase64.replace(/^data:image\/png;base64,/, '').replace(/\s/g, '');
  if (!bare || !/^[A-Za-z0-9+/]+=*$/.test(bare)) return null;
  const png = Buffer.from(bare, 'base64');
  if (png.length < 67 || png.length > MAX_SIGNATURE_BYTES || !png.subarray(0, 8).equals(PNG_MAGIC)) return null;
  return png;
}

/**
 * The user's saved signature image (drawn, or typed and rendered), as stored in the blob store.
 * Lease-up and recertification call this when a person signs a TIC or lease letter; null when the
 * user has not saved one yet.
 */
export async function getSavedSignature(db: Db, blobs: BlobStore, userId: string): Promise<{ png: Buffer } | null> {
  const row = await db.selectFrom('user_signatures').select('blob_key').where('user_id', '=', userId).executeTakeFirst();
  if (!row) return null;
  const object = await blobs.get(row.blob_key);
  return object ? { png: object.body } : null;
}

export async function getSignatureInfo(db: Db, userId: string) {
  return db.selectFrom('user_signatures').select(['kind', 'updated_at']).where('user_id', '=', userId).executeTakeFirst();
}

/** Stores the image first, then the row: a failed upload leaves the previous signature in place. */
export async function saveSignature(db: Db, blobs: BlobStore, userId: string, png: Buffer, kind: SignatureKind): Promise<void> {
  const key = signatureKey(userId);
  await blobs.put(key, png, 'image/png');
  await db
    .insertInto('user_signatures')
    .values({ user_id: userId, kind, blob_key: key, updated_at: new Date() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ kind, blob_key: key, updated_at: new Date() }))
    .execute();
}
