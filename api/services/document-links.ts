import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived signed links to one document (spec section 7 `generatepublicurlfromblobstorage`).
 * The link names the household and the document, an expiry, and an HMAC over the three under a key
 * derived from DATA_ENCRYPTION_KEY; whoever holds it may read that one file until it expires, so it
 * is only handed to the document's household or its organisation's managers, and lives minutes.
 */
export const DOCUMENT_LINK_TTL_SECONDS = 300;

export interface DocumentLinkClaims {
  householdId: string;
  documentId: string;
  /** Unix time in seconds. */
  expiresAt: number;
}

const keys = new Map<string, Buffer>();
function signingKey(dataKey: string): Buffer {
  let key = keys.get(dataKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', Buffer.from(dataKey, 'base64'), Buffer.alloc(0), 'portal document links v1', 32));
    keys.set(dataKey, key);
  }
  return key;
}

/** 128 bits of HMAC-SHA256: plenty for a link that lives minutes, and short enough for a path segment. */
const mac = (dataKey: string, payload: Buffer) => createHmac('sha256', signingKey(dataKey)).update(payload).digest().subarray(0, 16);
const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidText = (b: Buffer) => b.toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** household (16 bytes) + document (16 bytes) + expiry (4 bytes), then the MAC, base64url. */
export function signDocumentLink(dataKey: string, claims: DocumentLinkClaims): string {
  const expiry = Buffer.alloc(4);
  expiry.writeUInt32BE(claims.expiresAt);
  const payload = Buffer.concat([uuidBytes(claims.householdId), uuidBytes(claims.documentId), expiry]);
  return Buffer.concat([payload, mac(dataKey, payload)]).toString('base64url');
}

/** The claims of a genuine, unexpired link; null for anything else. `nowSeconds` is injected. */
export function verifyDocumentLink(dataKey: string, token: string, nowSeconds: number): DocumentLinkClaims | null {
  if (!/^[A-Za-z0-9_-]{70,80}$/.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== 52) return null;
  const payload = raw.subarray(0, 36);
  if (!timingSafeEqual(mac(dataKey, payload), raw.subarray(36))) return null;
  const expiresAt = payload.readUInt32BE(32);
  if (expiresAt <= nowSeconds) return null;
  return { householdId: uuidText(payload.subarray(0, 16)), documentId: uuidText(payload.subarray(16, 32)), expiresAt };
}
