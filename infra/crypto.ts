import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Personal identifiers at rest (SSN, ITIN, alien registration number): AES-256-GCM with the
 * configured DATA_ENCRYPTION_KEY. Stored form: `v1:<iv>:<tag>:<ciphertext>` in base64, a fresh random
 * IV per value, so equal numbers never produce equal columns. Only the last 4 digits leave the API.
 */
export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(stored: string): string;
}

export function createFieldCipher(base64Key: string): FieldCipher {
  const key = Buffer.from(base64Key, 'base64');
  if (key.length !== 32) throw new Error('DATA_ENCRYPTION_KEY must be 32 bytes');
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    decrypt(stored) {
      const [version, iv, tag, body] = stored.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unrecognised encrypted value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/** The only form in which an identifier is ever shown: its last 4 digits. */
export const lastFour = (value: string) => value.replace(/\D/g, '').slice(-4);
