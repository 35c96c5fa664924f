import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaqCategory, FaqQuestion } from '../../domain';
import { otherOrganizationManager } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

type Auth = { authorization: string; userId: string };
const BASE = '/api/FaqCategory';
const text = (s: string) => ({ en: s, es: `${s} (es)`, zh: `${s}（中文）`, bn: `${s} (বাংলা)` });

/** FAQ categories (spec section 7 `GET api/FaqCategory`), public to read, managed by admins. */
describe('FAQ categories through the API', () => {
  let stack: Stack;
  let resident: Auth;
  let ambassador: Auth;
  let manager: Auth;
  let otherManager: Auth;
  let admin: Auth;

  beforeAll(async () => {
    stack = await startStack();
    [resident, ambassador, manager, admin] = await Promise.all([signIn(stack.app, 'Tenant'), signIn(stack.app, 'HousingAmbassador'), signIn(stack.app, 'Manager'), signIn(stack.app, 'Admin')]);
    otherManager = await otherOrganizationManager(stack);
  });
  afterAll(() => stack?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: Auth, payload?: object) =>
    stack.app.inject({ method, url, ...(who ? { headers: { authorization: who.authorization } } : {}), ...(payload ? { payload } : {}) });
  const counts = async () => ({
    categories: Number((await stack.db.selectFrom('faq_categories').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    questions: Number((await stack.db.selectFrom('faq_questions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  });

  it('is seeded with answers about the portal in all four languages, readable without signing in', async () => {
    const res = await call('GET', BASE);
    expect(res.statusCode).toBe(200);
    const categories = res.json().data as FaqCategory[];
    expect(categories.map((c) => c.slug)).toEqual(expect.arrayContaining(['profile', 'documents', 'lottery-and-rank', 'recertification', 'appeals', 'relocation']));
    for (const c of categories) {
      expect(c.questions.length).toBeGreaterThan(0);
      for (const q of c.questions) for (const lang of ['en', 'es', 'zh', 'bn'] as const) expect(q.answer[lang].length, `${c.slug} ${lang}`).toBeGreaterThan(40);
    }
    // Every role reads the same FAQ.
    for (const who of [resident, ambassador, manager, otherManager, admin]) expect((await call('GET', BASE, who)).json().data).toHaveLength(categories.length);
  });

  it('searches every language, each word must match; suggestions rank the answers to what a ticket is about', async () => {
    const hits = (await call('GET', `${BASE}?search=${encodeURIComponent('appeal days')}`)).json().data as FaqCategory[];
    expect(hits.map((c) => c.slug)).toContain('appeals');
    expect(hits.flatMap((c) => c.questions).every((q) => /appeal/i.test(q.question.en + q.answer.en))).toBe(true);
    const spanish = (await call('GET', `${BASE}?search=${encodeURIComponent('reubicación')}`)).json().data as FaqCategory[];
    expect(spanish.map((c) => c.slug)).toEqual(['relocation']);
    const chinese = (await call('GET', `${BASE}?search=${encodeURIComponent('申诉')}`)).json().data as FaqCategory[];
    expect(chinese.map((c) => c.slug)).toContain('appeals');
    expect((await call('GET', `${BASE}?search=${encodeURIComponent('%_zzqx')}`)).json().data).toEqual([]);

    const suggested = (await call('GET', `${BASE}/suggestions?text=${encodeURIComponent('I missed my recertification deadline')}`)).json().data as FaqQuestion[];
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.length).toBeLessThanOrEqual(3);
    expect(suggested[0]!.question.en).toMatch(/missed the recertification deadline/);
    expect((await call('GET', `${BASE}/suggestions?text=${encodeURIComponent('how can you')}`)).json().data).toEqual([]);
  });

  it('refuses bad input with a 4xx in the envelope and saves nothing', async () => {
    const before = await counts();
    const res = await call('GET', `${BASE}?search=${'x'.repeat(101)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    expect((await call('GET', `${BASE}/suggestions`)).statusCode).toBe(400);
    for (const body of [
      { slug: 'Bad Slug', position: 0, name: text('x') },
      { slug: 'ok', position: 0, name: { en: 'only english' } },
      { slug: 'ok', position: -1, name: text('x') },
      { slug: 'ok', position: 0, name: { ...text('x'), es: '  ' } },
      { slug: 'ok', position: 0, name: text('x'), extra: true },
    ]) {
      const r = await call('POST', BASE, admin, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json()).toMatchObject({ status: 400, data: { code: 'validation' } });
    }
    expect((await call('POST', BASE, admin, { slug: 'profile', position: 0, name: text('Duplicate') })).json()).toMatchObject({ status: 409, data: { code: 'faqSlugTaken' } });
    expect((await call('PUT', `${BASE}/nope`, admin, { slug: 'ok', position: 0, name: text('x') })).statusCode).toBe(400);
    expect((await call('PUT', `${BASE}/${randomUUID()}`, admin, { slug: 'ok', position: 0, name: text('x') })).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/${randomUUID()}/questions`, admin, { position: 0, question: text('q'), answer: text('a') })).statusCode).toBe(404);
    expect((await call('POST', `${BASE}/${randomUUID()}/questions`, admin, { position: 0, question: text('q') })).statusCode).toBe(400);
    expect((await call('PUT', `${BASE}/questions/${randomUUID()}`, admin, { position: 0, question: text('q'), answer: text('a') })).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/questions/${randomUUID()}`, admin)).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/${randomUUID()}`, admin)).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it('only admins change it: residents, ambassadors and managers (of any organisation) are refused', async () => {
    const before = await counts();
    const [anyCategory] = (await call('GET', BASE)).json().data as FaqCategory[];
    const questionId = anyCategory!.questions[0]!.id;
    const attempts: [string, string, object | undefined][] = [
      ['POST', BASE, { slug: 'sneaky', position: 9, name: text('Sneaky') }],
      ['PUT', `${BASE}/${anyCategory!.id}`, { slug: anyCategory!.slug, position: 0, name: text('Changed') }],
      ['DELETE', `${BASE}/${anyCategory!.id}`, undefined],
      ['POST', `${BASE}/${anyCategory!.id}/questions`, { position: 0, question: text('q'), answer: text('a') }],
      ['PUT', `${BASE}/questions/${questionId}`, { position: 0, question: text('q'), answer: text('a') }],
      ['DELETE', `${BASE}/questions/${questionId}`, undefined],
    ];
    for (const [method, url, body] of attempts) {
      expect((await call(method as 'POST', url, undefined, body)).statusCode, `${method} ${url} signed out`).toBe(401);
      for (const who of [resident, ambassador, manager, otherManager]) {
        const res = await call(method as 'POST', url, who, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ status: 403 });
      }
    }
    expect(await counts()).toEqual(before);
    expect(((await call('GET', BASE)).json().data as FaqCategory[])[0]!.name).toEqual(anyCategory!.name);
  });

  it('an admin creates, edits and deletes a category and its questions', async () => {
    const created = await call('POST', BASE, admin, { slug: 'heating', position: 50, name: text('Heating') });
    expect(created.statusCode).toBe(201);
    const category = created.json().data as FaqCategory;
    const q = await call('POST', `${BASE}/${category.id}/questions`, admin, { position: 0, question: text('Who fixes the radiator?'), answer: text('Your building superintendent fixes it.') });
    expect(q.statusCode).toBe(201);
    const question = q.json().data as FaqQuestion;
    expect((await call('GET', `${BASE}?search=radiator`)).json().data).toEqual([expect.objectContaining({ slug: 'heating', questions: [expect.objectContaining({ id: question.id })] })]);

    const edited = await call('PUT', `${BASE}/questions/${question.id}`, admin, { position: 1, question: text('Who fixes the boiler?'), answer: text('The superintendent.') });
    expect(edited.json().data).toMatchObject({ position: 1, question: { en: 'Who fixes the boiler?' } });
    const renamed = await call('PUT', `${BASE}/${category.id}`, admin, { slug: 'heat', position: 50, name: text('Heat and hot water') });
    expect(renamed.json().data).toMatchObject({ slug: 'heat', name: { en: 'Heat and hot water' }, questions: [expect.objectContaining({ id: question.id })] });

    expect((await call('DELETE', `${BASE}/questions/${question.id}`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', `${BASE}/${category.id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', `${BASE}?search=boiler`)).json().data).toEqual([]);
  });
});
