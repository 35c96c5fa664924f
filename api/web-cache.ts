import type { FastifyReply } from 'fastify';

/**
 * Caching of the built web app: files under /assets/ are named by their content hash, so
 * a browser may keep them for a year without asking again; index.html names the current hashes, so
 * it is revalidated on every visit (a deploy is seen at once).
 */
export function webCacheHeaders(reply: FastifyReply, path: string): void {
  const hashed = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}(\.[a-z0-9]+)+$/.test(path);
  reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
}
