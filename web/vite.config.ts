import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // One bundle (~175 kB gzipped: React, router, query, i18n with four languages, zod) that the
    // browser caches; splitting it would add round trips for every first page view.
    chunkSizeWarningLimit: 800,
  },
  server: {
    // The shared domain module (../domain) lives outside web/; web code reaches it via src/lib/domain.ts.
    fs: { allow: [repoRoot] },
    proxy: { '/api': 'http://localhost:3000' },
  },
});
