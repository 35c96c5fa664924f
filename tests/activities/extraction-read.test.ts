import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIRM_BELOW, amountsIn, datesIn, frequencyOfPeriod, readFields, type TextLine } from '../../domain/extraction';
import { OCR_LANG_PATH, readDocument } from '../../infra/extraction/read-document';
import { BANK_STATEMENTS, PAY_STUBS, imageOnlyPdf, renderPng, samplePdf, type Sample } from '../helpers/statements';

/**
 * The figures of bank statements and pay stubs generated in three layouts each,
 * read from the PDF's text and from the same page as an image (OCR, with the English model from
 * node_modules): every field comes back right, and the field a layout leaves unlabelled is marked
 * for confirmation.
 */
const SAMPLES = [...BANK_STATEMENTS, ...PAY_STUBS];

function check(sample: Sample, lines: TextLine[], exactUnsure: boolean) {
  const { fields } = readFields(sample.documentType, lines);
  const got = fields as unknown as Record<string, { value: unknown; confidence: number; confirm: boolean }>;
  for (const [name, value] of Object.entries(sample.expected)) expect(got[name]!.value, `${sample.name} ${name}`).toEqual(value);
  const unsure = Object.keys(got).filter((k) => got[k]!.confirm);
  // A scan may leave a correct field less sure than its PDF text; the unlabelled field is always marked.
  if (exactUnsure) expect(unsure, sample.name).toEqual(sample.unsure);
  else expect(unsure, sample.name).toEqual(expect.arrayContaining(sample.unsure));
  for (const name of Object.keys(got)) expect(got[name]!.confirm, `${sample.name} ${name}`).toBe(got[name]!.confidence < CONFIRM_BELOW);
}

describe('reading figures from statements and pay stubs', () => {
  it.each(SAMPLES.map((s) => [s.name, s] as const))('reads %s from the PDF text', async (_name, sample) => {
    const read = await readDocument(await samplePdf(sample), 'application/pdf');
    expect(read.source).toBe('pdf_text');
    check(sample, read.lines, true);
  });

  // OCR is CPU heavy: each page is small (612x320 points at 150 dpi).
  it.each(SAMPLES.map((s) => [s.name, s] as const))('reads %s from a scanned image (OCR)', async (_name, sample) => {
    const read = await readDocument(await renderPng(await samplePdf(sample)), 'image/png');
    expect(read.source).toBe('ocr');
    expect(read.lines.every((l) => l.confidence >= 0 && l.confidence <= 1)).toBe(true);
    check(sample, read.lines, false);
  }, 60_000);

  it('reads a scan saved as a PDF with no text of its own (rendered, then OCR)', async () => {
    for (const sample of [BANK_STATEMENTS[1]!, PAY_STUBS[1]!]) {
      const read = await readDocument(await imageOnlyPdf(await renderPng(await samplePdf(sample))), 'application/pdf');
      expect(read.source).toBe('ocr');
      check(sample, read.lines, false);
    }
  }, 60_000);

  it('reads with the English model shipped in node_modules, never a download', () => {
    expect(OCR_LANG_PATH).toMatch(/node_modules[\\/]@tesseract\.js-data[\\/]eng[\\/]/);
    expect(existsSync(join(OCR_LANG_PATH, 'eng.traineddata.gz'))).toBe(true);
    // cacheMethod 'none': no model copy is written next to the process either.
    expect(existsSync('eng.traineddata')).toBe(false);
  });

  it('marks a field read from a poorly scanned line, and one not found at all', () => {
    const lines = (conf: number): TextLine[] => [
      { text: 'Riverside Community Bank', confidence: 1 },
      { text: 'Account number: XXXX4821', confidence: conf },
      { text: 'Ending balance: $1,000.00', confidence: 1 },
    ];
    const sure = readFields('bank_statement', lines(0.97)).fields as unknown as Record<string, { value: unknown; confirm: boolean }>;
    expect(sure.last4).toMatchObject({ value: '4821', confirm: false });
    const poor = readFields('bank_statement', lines(0.55)).fields as unknown as Record<string, { value: unknown; confirm: boolean }>;
    expect(poor.last4).toMatchObject({ value: '4821', confirm: true });
    // No date on this statement and no account type: empty, marked.
    expect(poor.statementDate).toEqual({ value: null, confidence: 0, confirm: true });
    expect(poor.accountType).toEqual({ value: null, confidence: 0, confirm: true });
  });

  it('reads dates, amounts and pay frequencies in their usual forms', () => {
    expect(datesIn('10/01/2026 - Oct 31, 2026 and 2026-11-05, 7 December 2026, 2/30/2026')).toEqual(['2026-10-01', '2026-10-31', '2026-11-05', '2026-12-07']);
    expect(amountsIn('$1,234.56  (12.00)  -$5.10  80.00 10,000 on 11/15/2026')).toEqual([1234.56, -12, -5.1, 80, 10000]);
    expect(frequencyOfPeriod('2026-10-27', '2026-11-09')).toBe('bi_weekly');
    expect(frequencyOfPeriod('2026-11-01', '2026-11-15')).toBe('semimonthly');
    expect(frequencyOfPeriod('2026-11-16', '2026-11-30')).toBe('semimonthly');
    expect(frequencyOfPeriod('2026-10-31', '2026-11-06')).toBe('weekly');
    expect(frequencyOfPeriod('2026-10-01', '2026-10-31')).toBe('monthly');
    expect(frequencyOfPeriod('2026-10-01', '2026-10-03')).toBeNull();
  });
});
