/**
 * `npm run build:web` builds the web app into web/dist and records what it was built from;
 * `npm start` runs it with `--if-changed`, which reuses web/dist when no source changed (a second
 * start does not wait for a build). The sources are web/ (without web/dist), the shared domain/
 * module the web app imports, and the lock file (a dependency change is a change).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCES = ['web', 'domain', 'package-lock.json'];
const SKIPPED = new Set(['dist', 'node_modules', '.vite']);
export const HASH_FILE = '.source-hash';

async function filesUnder(path: string): Promise<string[]> {
  if (!existsSync(path)) return [];
  const entries = await readdir(path, { withFileTypes: true }).catch(() => null);
  if (!entries) return [path];
  const nested = await Promise.all(entries.filter((e) => !SKIPPED.has(e.name)).map((e) => filesUnder(join(path, e.name))));
  return nested.flat();
}

/** One hash of every source file's path and bytes under `root`, in a stable order. */
export async function webSourceHash(root: string): Promise<string> {
  const files = (await Promise.all(SOURCES.map((s) => filesUnder(join(root, s))))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(root, file).split(sep).join('/'));
    hash.update('\0');
    hash.update(await readFile(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether web/dist under `root` was built from exactly these sources. */
export async function webBuildIsCurrent(root: string, hash: string): Promise<boolean> {
  const dist = join(root, 'web', 'dist');
  if (!existsSync(join(dist, 'index.html'))) return false;
  const recorded = await readFile(join(dist, HASH_FILE), 'utf8').catch(() => '');
  return recorded.trim() === hash;
}

async function main(argv: string[]): Promise<void> {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const hash = await webSourceHash(root);
  if (argv.includes('--if-changed') && (await webBuildIsCurrent(root, hash))) {
    process.stdout.write('[portal] web app unchanged since its last build: reusing web/dist\n');
    return;
  }
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const code = await new Promise<number>((done) => {
    const child = spawn(process.execPath, [vite, 'build', '--config', join(root, 'web', 'vite.config.ts')], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    });
    child.once('exit', (exitCode) => done(exitCode ?? 1));
  });
  if (code !== 0) process.exit(code);
  await writeFile(join(root, 'web', 'dist', HASH_FILE), `${hash}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));
