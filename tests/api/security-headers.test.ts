import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { signIn, startStack, type Stack } from '../helpers/stack';
import { multipart, tinyPdf } from '../helpers/household';

/**
 * Security headers on every answer (the web app, the API, a document download), no caching
 * of personal data, documents as attachments with their checked type and a sandboxing CSP, and
 * PDF+HTML polyglots refused at upload.
 */
describe('security headers', () => {
  let stack: Stack;
  let user: { authorization: string };
  beforeAll(async () => {
    stack = await startStack();
    user = await signIn(stack.app, 'User');
  });
  afterAll(() => stack?.close());

  const directives = (csp: string | undefined) =>
    new Map((csp ?? '').split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1)] as const));

  it('serves the web app with a strict CSP (no inline script), no framing, nosniff and no referrer', async () => {
    expect(existsSync('web/dist/index.html'), 'run npm run build:web first').toBe(true);
    for (const url of ['/', '/login', '/dashboard']) {
      const r = await stack.app.inject({ method: 'GET', url });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toContain('text/html');
      const csp = directives(r.headers['content-security-policy'] as string);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
      // The page itself keeps to it: no inline script element.
      expect(r.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    }
  });

  it('answers the API with the same headers and Cache-Control: no-store on personal data and tokens', async () => {
    const login = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: 'applicant', password: 'wrong-one-1' } });
    const profile = await stack.app.inject({ method: 'GET', url: '/api/Household/profile', headers: user });
    const missing = await stack.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    for (const r of [login, profile, missing]) {
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(directives(r.headers['content-security-policy'] as string).get('frame-ancestors')).toEqual(["'none'"]);
    }
    // Public lookups keep their own caching.
    const lookups = await stack.app.inject({ method: 'GET', url: '/api/Lookups', headers: user });
    expect(lookups.statusCode).toBe(200);
    expect(lookups.headers['cache-control']).not.toBe('no-store');
  });

  it('serves a document download as an attachment with its checked type and a sandboxing CSP', async () => {
    const m = multipart({ documentType: 'other' }, [{ name: 'stub <b>.pdf', body: tinyPdf(), type: 'text/html' }]);
    const upload = await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, ...user } });
    expect(upload.statusCode).toBe(201);
    const id = upload.json().data[0].id as string;
    const r = await stack.app.inject({ method: 'GET', url: `/api/Document/Download/${id}`, headers: user });
    expect(r.statusCode).toBe(200);
    // The type checked by content at upload, not the one the browser declared.
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="stub__b_.pdf"/);
    const csp = directives(r.headers['content-security-policy'] as string);
    expect(csp.has('sandbox')).toBe(true);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.rawPayload.equals(tinyPdf())).toBe(true);
    // Another household's document is not served.
    const other = await signIn(stack.app, 'Tenant');
    expect((await stack.app.inject({ method: 'GET', url: `/api/Document/Download/${id}`, headers: other })).statusCode).toBe(404);
  });

  it('refuses a PDF that is also a web page (polyglot) at upload', async () => {
    const polyglot = Buffer.concat([tinyPdf(), Buffer.from('<html><body><script>fetch("/api/Account/logout")</script></body></html>')]);
    const m = multipart({ documentType: 'other' }, [{ name: 'stub.pdf', body: polyglot }]);
    const r = await stack.app.inject({ method: 'POST', url: '/api/Document/UploadDocument', payload: m.payload, headers: { ...m.headers, ...user } });
    expect(r.statusCode).toBe(415);
    expect(r.json()).toMatchObject({ status: 415, data: { code: 'invalidFile' } });
  });
});
