import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HASH_FILE, webBuildIsCurrent, webSourceHash } from '../../infra/web-build';

/** `npm start` reuses web/dist when nothing it was built from changed. */
describe('web build reuse', () => {
  it('changes with any web source, the shared domain module or the lock file, and not with the build output', async () => {
    const root = await mkdtemp(join(tmpdir(), 'portal-webhash-'));
    try {
      await mkdir(join(root, 'web', 'src'), { recursive: true });
      await mkdir(join(root, 'web', 'dist'), { recursive: true });
      await mkdir(join(root, 'domain'), { recursive: true });
      await writeFile(join(root, 'web', 'src', 'main.tsx'), 'export {};\n');
      await writeFile(join(root, 'domain', 'messages.ts'), "export const a = 'A';\n");
      await writeFile(join(root, 'package-lock.json'), '{}\n');
      const first = await webSourceHash(root);
      expect(await webSourceHash(root)).toBe(first);

      await writeFile(join(root, 'web', 'dist', 'index.html'), '<div id="root"></div>');
      await writeFile(join(root, 'web', 'dist', HASH_FILE), `${first}\n`);
      expect(await webSourceHash(root)).toBe(first);
      expect(await webBuildIsCurrent(root, first)).toBe(true);

      await writeFile(join(root, 'domain', 'messages.ts'), "export const a = 'B';\n");
      const second = await webSourceHash(root);
      expect(second).not.toBe(first);
      expect(await webBuildIsCurrent(root, second)).toBe(false);

      await writeFile(join(root, 'web', 'src', 'extra.ts'), '');
      expect(await webSourceHash(root)).not.toBe(second);
      await writeFile(join(root, 'package-lock.json'), '{"v":2}\n');
      expect(await webSourceHash(root)).not.toBe(second);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('is not current without a built index.html', async () => {
    const root = await mkdtemp(join(tmpdir(), 'portal-webhash-'));
    try {
      await mkdir(join(root, 'web', 'dist'), { recursive: true });
      const hash = await webSourceHash(root);
      await writeFile(join(root, 'web', 'dist', HASH_FILE), `${hash}\n`);
      expect(await webBuildIsCurrent(root, hash)).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
