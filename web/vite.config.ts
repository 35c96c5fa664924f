import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressedAssets } from './build/compressed-assets';
import { initialJsReport } from './build/initial-js-report';
import { localeChunks, localesHash } from './build/locale-chunks';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const localesDir = fileURLToPath(new URL('./src/i18n/locales', import.meta.url));
const localeHash = localesHash(localesDir);

export default defineConfig({
  root: webRoot,
  plugins: [react(), localeChunks(localesDir, localeHash), initialJsReport(), compressedAssets()],
  // The texts' chunks are named by one hash of them all (build/locale-chunks.ts).
  define: { __LOCALE_HASH__: JSON.stringify(localeHash) },
  resolve: {
    alias: [
      // react-i18next's fallback for React < 18: React 19 has the hook (issue 11, initial JS).
      { find: /^use-sync-external-store\/shim$/, replacement: fileURLToPath(new URL('./src/i18n/use-sync-external-store.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Split by route (issue 11): each page and each language's texts are their own chunks; the
    // initial JS of the public pages is printed after the build (build/initial-js-report.ts).
    chunkSizeWarningLimit: 500,
    // Every browser the portal supports (Chromium, Firefox 115+, Safari 17+) preloads modules
    // itself: the polyfill was half a kilobyte of every page's first load.
    modulePreload: { polyfill: false },
  },
  server: {
    // The shared domain module (../domain) lives outside web/; web code reaches it via src/lib/domain.ts.
    fs: { allow: [repoRoot] },
    proxy: { '/api': 'http://localhost:3000' },
  },
});
