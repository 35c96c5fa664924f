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

const mac = (dataKey: string, payload: string) => createHmac('sha256', signingKey(dataKey)).update(payload).digest('base64url');

export function signDocumentLink(dataKey: string, claims: DocumentLinkClaims): string {
  const payload = Buffer.from(`${claims.householdId}.${claims.documentId}.${claims.expiresAt}`).toString('base64url');
  return `${payload}.${mac(dataKey, payload)}`;
}

/** The claims of a genuine, unexpired link; null for anything else. `nowSeconds` is injected. */
export function verifyDocumentLink(dataKey: string, token: string, nowSeconds: number): DocumentLinkClaims | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(dataKey, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const [householdId, documentId, expires] = Buffer.from(payload, 'base64url').toString('utf8').split('.');
  const expiresAt = Number(expires);
  if (!householdId || !documentId || !Number.isInteger(expiresAt) || expiresAt <= nowSeconds) return null;
  return { householdId, documentId, expiresAt };
}
