import { createFieldCipher, type FieldCipher, type KeyRing } from './crypto';

/**
 * The key ring of this process, set once at start (api/app.ts, the worker, keys:rotate), so
 * readers deep in the services (an income total read by the recertification service) decrypt
 * without every caller passing keys. Rings set later are merged: the newest key encrypts, every key
 * seen decrypts (one process may host several test stacks, each with its own key).
 */
let ring: KeyRing | null = null;
let cipher: FieldCipher | null = null;

export function useDataKeys(next: KeyRing): void {
  const byId = new Map(ring?.byId ?? []);
  for (const [id, key] of next.byId) byId.set(id, key);
  ring = { currentId: next.currentId, current: next.current, byId };
  cipher = createFieldCipher(ring);
}

export function hasDataKeys(): boolean {
  return ring !== null;
}

export function dataKeys(): KeyRing {
  if (!ring) throw new Error('data keys not set: call useDataKeys at start');
  return ring;
}

/** The column cipher under the process's key ring. */
export function dataCipher(): FieldCipher {
  if (!cipher) throw new Error('data keys not set: call useDataKeys at start');
  return cipher;
}

/** A JSON column's value sealed as `{"$sealed": "<v2 value>"}`, so the column keeps its jsonb type. */
export function sealJson(value: unknown): string {
  return JSON.stringify({ $sealed: dataCipher().encrypt(JSON.stringify(value)) });
}

export function isSealedJson(value: unknown): value is { $sealed: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $sealed?: unknown }).$sealed === 'string';
}

/** Opens a sealed JSON value; a plain value (written before encryption) is returned as it is. */
export function openJson<T>(value: unknown): T {
  return (isSealedJson(value) ? JSON.parse(dataCipher().decrypt(value.$sealed)) : value) as T;
}

export function sealNumber(value: number): string {
  return dataCipher().encrypt(String(value));
}

/** A sealed number, else the plain legacy value, else null. */
export function openNumber(sealed: string | null | undefined, plain?: string | number | null): number | null {
  if (sealed) return Number(dataCipher().decrypt(sealed));
  return plain === null || plain === undefined ? null : Number(plain);
}
