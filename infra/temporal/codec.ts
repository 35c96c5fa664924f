import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';

const { temporal } = proto;

const ENCODING = 'binary/encrypted';
const CIPHER = 'aes-256-gcm';
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

/**
 * Encrypts every payload the client and worker send to Temporal (workflow inputs, update arguments,
 * query results, activity results), so histories hold no personal data in the clear. Operators decode
 * through the API's codec endpoint with the same key.
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly keyId: string;
  private readonly keysById = new Map<string, Buffer>();

  /** `previous`: keys of earlier rotations, kept so histories written under them still decode. */
  constructor(private readonly key: Buffer, previous: readonly Buffer[] = []) {
    if (key.length !== 32) throw new Error('payload codec key must be 32 bytes');
    // The key id names the key without revealing it, so a later rotation can keep old keys by id.
    const idOf = (k: Buffer) => createHash('sha256').update(k).digest('hex').slice(0, 16);
    this.keyId = idOf(key);
    for (const k of [key, ...previous]) this.keysById.set(idOf(k), k);
  }

  static fromBase64(key: string, previous = ''): EncryptionCodec {
    const olds = previous.split(',').map((k) => k.trim()).filter(Boolean).map((k) => Buffer.from(k, 'base64'));
    return new EncryptionCodec(Buffer.from(key, 'base64'), olds);
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const iv = randomBytes(IV_LENGTH);
      const cipher = createCipheriv(CIPHER, this.key, iv);
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          encoding: Buffer.from(ENCODING),
          'encryption-key-id': Buffer.from(this.keyId),
        },
        data,
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (Buffer.from(payload.metadata?.encoding ?? []).toString() !== ENCODING) return payload;
      const keyId = Buffer.from(payload.metadata?.['encryption-key-id'] ?? []).toString();
      const key = this.keysById.get(keyId);
      if (!key) throw new Error(`payload encrypted with unknown key ${keyId}`);
      const data = Buffer.from(payload.data ?? []);
      const iv = data.subarray(0, IV_LENGTH);
      const tag = data.subarray(data.length - TAG_LENGTH);
      const decipher = createDecipheriv(CIPHER, key, iv);
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(data.subarray(IV_LENGTH, data.length - TAG_LENGTH)), decipher.final()]);
      return temporal.api.common.v1.Payload.decode(plain);
    });
  }
}
