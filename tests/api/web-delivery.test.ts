/**
 * The built web app is sent compressed and cached by hash. Hashed assets go out
 * as stored by the build (brotli or gzip, as the browser accepts) with a year-long immutable cache;
 * index.html is revalidated every visit (a deploy is seen at once); API answers are compressed too.
 * Reads `web/dist` (`npm run build:web` first).
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
const DIST = new URL('../../web/dist/assets/', import.meta.url);
const entry = readdirSync(DIST).find((f) => /^index-.*\.js$/.test(f))!;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

describe('web app delivery', () => {
  it('sends hashed assets pre-compressed with an immutable year-long cache', async () => {
    expect(entry).toBeTruthy();
    const plain = await stack.app.inject({ url: `/assets/${entry}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip']] as const) {
      const res = await stack.app.inject({ url: `/assets/${entry}`, headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.rawPayload.length, accept).toBeLessThan(plain.rawPayload.length / 2);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('revalidates index.html on every visit (compressed at /)', async () => {
    const root = await stack.app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(root.statusCode).toBe(200);
    expect(root.headers['cache-control']).toBe('no-cache');
    expect(root.headers['content-encoding']).toBe('gzip');
    // A client-side route gets the same page (under 1 KB: sent as it is from there).
    const route = await stack.app.inject({ url: '/public/opportunities' });
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.body).toBe((await stack.app.inject({ url: '/' })).body);
  });

  it('compresses API answers', async () => {
    const { authorization } = await signIn(stack.app, 'User');
    const res = await stack.app.inject({ url: '/api/Lookups', headers: { authorization, 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});
