import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|json|svg|txt)$/;

/**
 * Issue 11: the built files are stored compressed beside the originals (`x.js.br`, `x.js.gz`, best
 * levels, once per build), and the API's static server sends them as they are (@fastify/static
 * `preCompressed`), so no request pays for compression. Fonts are already compressed (woff2).
 */
export function compressedAssets(): Plugin {
  let outDir = '';
  return {
    name: 'portal-compressed-assets',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const path = join(outDir, fileName);
        const body = await readFile(path);
        if (body.length < 1024) continue;
        await writeFile(`${path}.gz`, gzipSync(body, { level: 9 }));
        await writeFile(`${path}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
      }
    },
  };
}
