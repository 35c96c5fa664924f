import { chmod, mkdir, readFile, readdir, rm, writeFile, rename, access } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import { assertValidKey, type BlobObject, type BlobStore } from './blob-store';

/**
 * The embedded default: objects as files under one folder, content type in a sidecar file. Folders
 * are 0700 and files 0600: only the portal's own user reads them (the bytes are sealed anyway).
 */
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
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    // Write then rename so a reader never sees half an object.
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, body, { mode: 0o600 });
    await writeFile(`${file}.type`, contentType, { mode: 0o600 });
    // writeFile's mode applies only to new files: a replaced sidecar keeps the mode it had.
    await chmod(`${file}.type`, 0o600);
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
    await mkdir(join(this.root, 'objects'), { recursive: true, mode: 0o700 });
    await access(join(this.root, 'objects'));
  }

  async *list(prefix = ''): AsyncIterable<string> {
    const base = join(this.root, 'objects');
    let entries: string[];
    try {
      entries = await readdir(base, { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const all = new Set(entries);
    for (const entry of entries.sort()) {
      const key = relative(base, join(base, entry)).split(sep).join('/');
      if (key.endsWith('.type') || key.endsWith('.tmp') || !key.startsWith(prefix)) continue;
      try {
        assertValidKey(key);
      } catch {
        continue;
      }
      // Folders are listed too: only keys with a content-type sidecar are objects.
      if (all.has(`${entry}.type`)) yield key;
    }
  }
}
