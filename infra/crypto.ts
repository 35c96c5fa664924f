import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Personal data at rest (SSN, ITIN, alien registration number, income amounts, documents and
 * letters) is encrypted with AES-256-GCM under the key ring built from DATA_ENCRYPTION_KEY (the
 * current key, which encrypts everything new) and DATA_ENCRYPTION_KEYS_PREVIOUS (older keys, which
 * only decrypt). Every stored value names the id of the key that sealed it, so a rotation
 * (`npm run keys:rotate`) finds what is still under an old key and re-encrypts it.
 */
export interface KeyRing {
  /** Id of the key that encrypts new values: the first 16 hex digits of its SHA-256. */
  currentId: string;
  current: Buffer;
  byId: ReadonlyMap<string, Buffer>;
}

export const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);

function parseKey(base64: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error('an encryption key must be 32 bytes in base64');
  return key;
}

/** The ring from the current key (base64) and any previous ones (base64, comma separated or a list). */
export function createKeyRing(current: string, previous: string | readonly string[] = []): KeyRing {
  const currentKey = parseKey(current);
  const olds = (typeof previous === 'string' ? previous.split(',') : previous).map((k) => k.trim()).filter(Boolean).map(parseKey);
  const byId = new Map<string, Buffer>();
  for (const key of [currentKey, ...olds]) byId.set(keyIdOf(key), key);
  return { currentId: keyIdOf(currentKey), current: currentKey, byId };
}

export function keyRingFromConfig(config: { DATA_ENCRYPTION_KEY: string; DATA_ENCRYPTION_KEYS_PREVIOUS?: string | undefined }): KeyRing {
  return createKeyRing(config.DATA_ENCRYPTION_KEY, config.DATA_ENCRYPTION_KEYS_PREVIOUS ?? '');
}

function keyFor(ring: KeyRing, id: string): Buffer {
  const key = ring.byId.get(id);
  if (!key) throw new Error(`no key with id ${id} in the key ring (set DATA_ENCRYPTION_KEYS_PREVIOUS)`);
  return key;
}

function seal(key: Buffer, plain: Buffer, aad?: Buffer): { iv: Buffer; tag: Buffer; body: Buffer } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), body };
}

function open(key: Buffer, iv: Buffer, tag: Buffer, body: Buffer, aad?: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

/**
 * Column values. Stored form: `v2:<key id>:<iv>:<tag>:<ciphertext>` (base64 parts), a fresh IV per
 * value, so equal numbers never produce equal columns. `v1:<iv>:<tag>:<ciphertext>` (before key ids)
 * is still read, with each key of the ring in turn.
 */
export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
  /** True when the value is not sealed by the current key (older format or an older key). */
  isStale(stored: string): boolean;
}

export function createFieldCipher(keys: KeyRing | string): FieldCipher {
  const ring = typeof keys === 'string' ? createKeyRing(keys) : keys;
  const b64 = (s: string) => Buffer.from(s, 'base64');
  return {
    encrypt(plain) {
      const { iv, tag, body } = seal(ring.current, Buffer.from(plain, 'utf8'));
      return ['v2', ring.currentId, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
    },
    decrypt(stored) {
      const parts = stored.split(':');
      if (parts[0] === 'v2' && parts.length === 5) {
        const [, id, iv, tag, body] = parts as [string, string, string, string, string];
        return open(keyFor(ring, id), b64(iv), b64(tag), b64(body)).toString('utf8');
      }
      if (parts[0] === 'v1' && parts.length === 4) {
        const [, iv, tag, body] = parts as [string, string, string, string];
        for (const key of ring.byId.values()) {
          try {
            return open(key, b64(iv), b64(tag), b64(body)).toString('utf8');
          } catch {
            // not this key: try the next one
          }
        }
        throw new Error('no key of the ring opens this value');
      }
      throw new Error('unrecognised encrypted value');
    },
    isStale(stored) {
      return !stored.startsWith(`v2:${ring.currentId}:`);
    },
  };
}

/**
 * Files (documents, letters) with envelope encryption: each object gets its own random data key,
 * which encrypts the bytes; the data key is stored wrapped by the ring's current key, named by its
 * id. A rotation re-wraps the data key. The object's storage key is bound as additional data, so a
 * file copied under another household's path does not open.
 *
 * Layout: "PENC1" | key id (16 ASCII) | wrap iv (12) | wrap tag (16) | wrapped data key (32) |
 * body iv (12) | body tag (16) | ciphertext.
 */
const MAGIC = Buffer.from('PENC1');
const HEADER = MAGIC.length + 16 + 12 + 16 + 32 + 12 + 16;

export function isSealedBlob(data: Buffer): boolean {
  return data.length >= HEADER && data.subarray(0, MAGIC.length).equals(MAGIC);
}

/** The id of the key that wrapped a sealed blob's data key (null for plain bytes). */
export function sealedBlobKeyId(data: Buffer): string | null {
  return isSealedBlob(data) ? data.subarray(MAGIC.length, MAGIC.length + 16).toString('ascii') : null;
}

export function sealBlob(ring: KeyRing, objectKey: string, plain: Buffer): Buffer {
  const dataKey = randomBytes(32);
  const aad = Buffer.from(objectKey, 'utf8');
  const wrapped = seal(ring.current, dataKey, aad);
  const body = seal(dataKey, plain, aad);
  return Buffer.concat([MAGIC, Buffer.from(ring.currentId, 'ascii'), wrapped.iv, wrapped.tag, wrapped.body, body.iv, body.tag, body.body]);
}

export function openBlob(ring: KeyRing, objectKey: string, data: Buffer): Buffer {
  if (!isSealedBlob(data)) throw new Error('not a sealed object');
  let at = MAGIC.length;
  const take = (n: number) => data.subarray(at, (at += n));
  const id = take(16).toString('ascii');
  const wrapIv = take(12);
  const wrapTag = take(16);
  const wrappedKey = take(32);
  const iv = take(12);
  const tag = take(16);
  const aad = Buffer.from(objectKey, 'utf8');
  const dataKey = open(keyFor(ring, id), wrapIv, wrapTag, wrappedKey, aad);
  return open(dataKey, iv, tag, data.subarray(at), aad);
}

/** The only form in which an identifier is ever shown: its last 4 digits. */
export const lastFour = (value: string) => value.replace(/\D/g, '').slice(-4);
