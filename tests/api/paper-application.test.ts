/**
 * The paper application of a published opportunity, generated in each of the four
 * languages with embedded fonts, public; its text read back with poppler's pdftotext names the
 * opportunity, its units and where to mail it, in the requested language.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../domain';
import { signIn, startStack, type Stack } from '../helpers/stack';

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8').normalize('NFC').replace(/\s+/g, ' ');
const fonts = (pdf: Buffer) => execFileSync('pdffonts', ['-'], { input: pdf }).toString('utf8');

const EXPECTED: Record<Language, string[]> = {
  en: ['Paper application: Harbor View', 'Unit 1A: Studio, $950 a month, 50% AMI', 'Fill in this form in ink, sign it and mail it to:', 'PO Box 42', 'Head of household'],
  es: ['Solicitud en papel: Harbor View', 'Unidad 1A: Estudio', 'Complete este formulario con tinta', 'PO Box 42', 'Jefe del hogar'],
  zh: ['纸质申请表: Harbor View', '单元 1A：开间', '请用墨水笔填写本表', 'PO Box 42', '户主'],
  bn: ['কাগজের আবেদন: Harbor View', 'ইউনিট 1A: স্টুডিও', 'এই ফর্মটি কালি দিয়ে পূরণ করুন', 'PO Box 42', 'পরিবারের প্রধান'],
};

describe('the generated paper application', () => {
  let stack: Stack;
  let id: string;
  let draftId: string;

  beforeAll(async () => {
    stack = await startStack();
    const manager = await signIn(stack.app, 'Manager');
    const create = (name: string) =>
      stack.app.inject({
        method: 'POST',
        url: '/api/Opportunity/manage',
        headers: { authorization: manager.authorization },
        payload: {
          name,
          kind: 'rental',
          address: '1 Harbor Way, Brooklyn, NY 11201',
          mailingAddress: 'Harbor View Lottery\nPO Box 42\nBrooklyn, NY 11201',
          lotteryEndDate: '2099-06-30',
          units: [{ unitNumber: '1A', bedroomType: 'Studio', monthlyRent: 950, amiPercent: 50 }],
          incomeRanges: [{ householdSize: 2, min: 30_000, max: 60_000 }],
        },
      });
    const created = await create('Harbor View');
    expect(created.statusCode).toBe(201);
    id = created.json().data.id;
    draftId = (await create('Harbor View Draft')).json().data.id;
    const published = await stack.app.inject({ method: 'POST', url: `/api/Opportunity/manage/${id}/publish`, headers: { authorization: manager.authorization } });
    expect(published.statusCode).toBe(200);
  });
  afterAll(() => stack?.close());

  for (const language of ['en', 'es', 'zh', 'bn'] as const) {
    it(`in ${language}: a PDF with its fonts embedded, whose text reads in ${language}`, async () => {
      const res = await stack.app.inject({ url: `/api/Opportunity/${id}/paper-application/${language}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const pdf = res.rawPayload;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(pdf);
      for (const expected of EXPECTED[language]) expect(text).toContain(expected);
      // Every font is a Noto font embedded in the file (pdffonts' 'emb' column: name ... emb sub uni object-id).
      const rows = fonts(pdf).split('\n').slice(2).filter(Boolean).map((row) => row.trim().split(/\s+/));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect([row[0]?.startsWith('Noto'), row.at(-5)]).toEqual([true, 'yes']);
      // Made once per content and language: asked again, the same file.
      expect((await stack.app.inject({ url: `/api/Opportunity/${id}/paper-application/${language}` })).rawPayload.equals(pdf)).toBe(true);
    }, 60_000);
  }

  it('is public for published opportunities only; an unknown language is refused', async () => {
    expect((await stack.app.inject({ url: `/api/Opportunity/${draftId}/paper-application/en` })).statusCode).toBe(404);
    const bad = await stack.app.inject({ url: `/api/Opportunity/${id}/paper-application/fr` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400 });
  });

  it('the public detail says where to mail the application', async () => {
    const detail = await stack.app.inject({ url: `/api/Opportunity/${id}` });
    expect(detail.json().data.mailingAddress).toBe('Harbor View Lottery\nPO Box 42\nBrooklyn, NY 11201');
  });
});
