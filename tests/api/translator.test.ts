import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyRing, keyRingFromConfig } from '../../infra/crypto';
import { useDataKeys } from '../../infra/data-keys';
import { resealTranslations } from '../../infra/key-rotation';
import { MESSAGES } from '../../domain';
import { TRANSLATOR_MAX_BATCH, TRANSLATOR_MAX_TEXT } from '../../domain/translator';
import esCommon from '../../web/src/i18n/locales/es/common.json';
import { startLibreTranslate, type LibreTranslateServer } from '../helpers/libretranslate-server';
import { signIn, startStack, type Stack } from '../helpers/stack';

/**
 * POST /api/Translator and /api/Translator/batch against a local server speaking
 * LibreTranslate's API. The catalogue answers the portal's own phrases, the memory answers a text
 * seen before (the server is not asked again), and a failing or slow server gives a 200 with the
 * original text and a clear message, never a 5xx. Without a server configured: 503.
 */
let server: LibreTranslateServer;
let stack: Stack;
let bare: Stack;
let tenant: { authorization: string };

beforeAll(async () => {
  server = await startLibreTranslate({ apiKey: 'test-key' });
  [stack, bare] = await Promise.all([
    // The time-out is the product's own; it must be long enough for an answer of the local server on
    // a loaded machine (300 ms was not), and only the held answer of the slow test waits it out.
    startStack({ worker: false, env: { TRANSLATE_URL: server.url, TRANSLATE_API_KEY: 'test-key', TRANSLATE_TIMEOUT_MS: '5000' } }),
    startStack({ worker: false }),
  ]);
  const signedIn = await signIn(stack.app, 'Tenant');
  tenant = { authorization: signedIn.authorization };
}, 120_000);
afterAll(async () => {
  if (stack) useDataKeys(keyRingFromConfig(stack.config));
  await Promise.all([stack?.close(), bare?.close()]);
  await server?.close();
});

const translate = (payload: unknown, headers = tenant, s = stack) => s.app.inject({ method: 'POST', url: '/api/Translator', headers, payload: payload as object });
const batch = (payload: unknown, headers = tenant) => stack.app.inject({ method: 'POST', url: '/api/Translator/batch', headers, payload: payload as object });

describe('translator', () => {
  it('translates one text through the server, sending its key, and remembers it sealed', async () => {
    server.mode = 'ok';
    const before = server.requests.length;
    const r = await translate({ text: 'Hello', target: 'es' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ text: 'Hola', original: 'Hello', translated: true, origin: 'server', source: 'en', target: 'es' });
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)).toMatchObject({ q: 'Hello', source: 'auto', target: 'es', format: 'text', api_key: 'test-key' });
    const rows = await stack.db.selectFrom('translation_memory').selectAll().execute();
    expect(rows).toHaveLength(1);
    // Neither text is stored readable, nor is the key the text.
    expect(JSON.stringify(rows)).not.toMatch(/Hola|Hello/);
    expect(rows[0]!.translated_encrypted).toMatch(/^v2:/);
  });

  it('answers a text seen before from the memory: the server is not asked again', async () => {
    const before = server.requests.length;
    const r = await translate({ text: 'Hello', target: 'es' });
    expect(r.json().data).toMatchObject({ text: 'Hola', translated: true, origin: 'memory' });
    expect(server.requests.length).toBe(before);
    // Another language pair is another text for the memory.
    const bn = await translate({ text: 'Hello', target: 'bn' });
    expect(bn.json().data).toMatchObject({ text: 'হ্যালো', origin: 'server' });
    expect(server.requests.length).toBe(before + 1);
  });

  it('translates a batch in one call: catalogue and memory first, the rest sent once, order kept', async () => {
    const before = server.requests.length;
    const r = await batch({ texts: ['Good morning', 'Hello', MESSAGES.profileLocked, 'Something new', 'Good morning', ''], target: 'es' });
    expect(r.statusCode, r.body).toBe(200);
    const t = r.json().data.translations as { text: string; origin: string; translated: boolean }[];
    expect(t.map((x) => x.origin)).toEqual(['server', 'memory', 'catalogue', 'server', 'server', 'same']);
    expect(t.map((x) => x.text)).toEqual(['Buenos días', 'Hola', esCommon.errors.profileLocked, '[es] Something new', 'Buenos días', '']);
    expect(r.json().data.code).toBeUndefined();
    // One request, each unknown text once, the portal's own phrase never sent out.
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.q).toEqual(['Good morning', 'Something new']);
    // The second time, everything is known.
    const again = await batch({ texts: ['Good morning', 'Something new'], target: 'es' });
    expect((again.json().data.translations as { origin: string }[]).map((x) => x.origin)).toEqual(['memory', 'memory']);
    expect(server.requests.length).toBe(before + 1);
  });

  it('a server error gives the original text with a clear message, not a 5xx, and nothing is remembered', async () => {
    server.mode = 'error';
    try {
      const r = await translate({ text: 'A reason the server cannot take', target: 'bn' });
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ message: MESSAGES.translationUnavailable, data: { text: 'A reason the server cannot take', translated: false, origin: 'none', code: 'translationUnavailable' } });
      const b = await batch({ texts: ['Hello', 'Another one'], target: 'bn' });
      expect(b.statusCode).toBe(200);
      expect(b.json().data.code).toBe('translationUnavailable');
      // What the memory knows is still translated.
      expect((b.json().data.translations as { translated: boolean; origin: string }[]).map((x) => [x.translated, x.origin])).toEqual([[true, 'memory'], [false, 'none']]);
    } finally {
      server.mode = 'ok';
    }
    const later = await translate({ text: 'A reason the server cannot take', target: 'bn' });
    expect(later.json().data).toMatchObject({ translated: true, origin: 'server' });
  });

  it('a server that does not answer in time gives the original text with a clear message, not a 5xx', async () => {
    server.mode = 'slow';
    try {
      const before = server.requests.length;
      const r = await translate({ text: 'Slow text', target: 'zh' });
      // The server holds its answer until the mode changes: the API answered without it (its own
      // time-out, TRANSLATE_TIMEOUT_MS), having asked once.
      expect(server.requests.length).toBe(before + 1);
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ message: MESSAGES.translationUnavailable, data: { text: 'Slow text', translated: false, code: 'translationUnavailable' } });
    } finally {
      server.mode = 'ok';
    }
  });

  it('refuses bad input with a 4xx in the envelope and strangers with 401', async () => {
    expect((await translate({ text: 'x', target: 'fr' })).statusCode).toBe(400);
    expect((await translate({ target: 'es' })).statusCode).toBe(400);
    const long = await translate({ text: 'a'.repeat(TRANSLATOR_MAX_TEXT + 1), target: 'es' });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/at most 5,000 characters/);
    expect((await batch({ texts: Array.from({ length: TRANSLATOR_MAX_BATCH + 1 }, () => 'x'), target: 'es' })).statusCode).toBe(400);
    expect((await batch({ texts: Array.from({ length: 5 }, () => 'a'.repeat(4_500)), target: 'es' })).statusCode).toBe(400);
    expect((await translate({ text: 'Hello', target: 'es' }, {} as never)).statusCode).toBe(401);
  });

  it('tells the web whether translation is available; unconfigured, both routes answer 503 with a clear message', async () => {
    const other = await signIn(bare.app, 'Manager');
    const headers = { authorization: other.authorization };
    expect((await stack.app.inject({ url: '/api/Translator/status', headers: tenant })).json().data).toEqual({ available: true });
    expect((await bare.app.inject({ url: '/api/Translator/status', headers })).json().data).toEqual({ available: false });
    for (const [url, payload] of [['/api/Translator', { text: 'Hello', target: 'es' }], ['/api/Translator/batch', { texts: ['Hello'], target: 'es' }]] as const) {
      const r = await bare.app.inject({ method: 'POST', url, headers, payload });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toMatchObject({ status: 503, message: MESSAGES.translatorNotConfigured, data: { code: 'translatorNotConfigured' } });
    }
  });

  it('a key rotation re-seals the memory and re-keys it: remembered texts are still not sent again', async () => {
    const count = await stack.db.selectFrom('translation_memory').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    useDataKeys(createKeyRing(randomBytes(32).toString('base64'), [stack.config.DATA_ENCRYPTION_KEY]));
    expect(await resealTranslations(stack.db)).toBe(Number(count.n));
    expect(await resealTranslations(stack.db)).toBe(0);
    const before = server.requests.length;
    const r = await translate({ text: 'Hello', target: 'es' });
    expect(r.json().data).toMatchObject({ text: 'Hola', origin: 'memory' });
    expect(server.requests.length).toBe(before);
  });
});
