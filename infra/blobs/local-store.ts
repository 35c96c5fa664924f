import { mkdir, readFile, rm, writeFile, rename, access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { assertValidKey, type BlobObject, type BlobStore } from './blob-store';

/** The embedded default: objects as files under one folder, content type in a sidecar file. */
export class LocalBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    assertValidKey(key);
    return join(this.root, 'objects', key);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    // Write then rename so a reader never sees half an object.
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, body);
    await writeFile(`${file}.type`, contentType);
    await rename(tmp, file);
  }

  async get(key: string): Promise<BlobObject | null> {
    const file = this.path(key);
    try {
      const [body, contentType] = await Promise.all([readFile(file), readFile(`${file}.type`, 'utf8')]);
      return { body, contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(`${file}.type`, { force: true });
  }

  async ping(): Promise<void> {
    await mkdir(join(this.root, 'objects'), { recursive: true });
    await access(join(this.root, 'objects'));
  }
}
