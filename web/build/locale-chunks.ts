import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { version as viteVersion, type Plugin } from 'vite';

/**
 * Issue 11: each language's namespace is its own chunk, named `assets/<namespace>-<language>-<hash>.js`
 * with one hash of all the texts, so the app loads one by building its name (web/src/i18n/resources.ts)
 * instead of carrying a map of about a hundred hashed file names in its first script. A change to any
 * text renames them all, which keeps them cacheable by name (api/web-cache.ts).
 */
export function localeFiles(localesDir: string): { language: string; namespace: string; path: string }[] {
  return readdirSync(localesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(localesDir, d.name))
        .filter((f) => f.endsWith('.json'))
        .map((f) => ({ language: d.name, namespace: f.slice(0, -'.json'.length), path: join(localesDir, d.name, f) })),
    )
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** 10 characters of [A-Za-z0-9_-] over every locale file's path and content (and the bundler's version). */
export function localesHash(localesDir: string): string {
  const hash = createHash('sha256').update(`vite ${viteVersion}\0`);
  for (const file of localeFiles(localesDir)) hash.update(`${file.language}/${file.namespace}\0`).update(readFileSync(file.path)).update('\0');
  return hash.digest('base64url').slice(0, 10);
}

export const localeChunkName = (namespace: string, language: string, hash: string) => `${namespace}-${language}-${hash}.js`;

/** Emits every locale file as a chunk of that name (production build only). */
export function localeChunks(localesDir: string, hash: string): Plugin {
  return {
    name: 'portal-locale-chunks',
    apply: 'build',
    buildStart() {
      for (const file of localeFiles(localesDir)) {
        this.addWatchFile(file.path);
        this.emitFile({ type: 'chunk', id: file.path, preserveSignature: 'strict', fileName: `assets/${localeChunkName(file.namespace, file.language, hash)}` });
      }
    },
  };
}
