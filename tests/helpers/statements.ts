import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

/**
 * Bank statements and pay stubs generated as PDFs for the tests, three layouts of each: a label
 * and its value on one line; labels above values and tables of columns; and a layout whose
 * institution or employer is only a bare heading (read with low confidence). Each comes as a PDF
 * with text and as the same page rendered to a PNG (pdftoppm, from poppler-utils) for OCR.
 */
export interface Sample {
  name: string;
  documentType: 'bank_statement' | 'pay_stub';
  /** Text drawn: [x, y from the top, text, size?]. */
  draw: [number, number, string, number?][];
  expected: Record<string, string | number>;
  /** Fields read with low confidence (marked for confirmation). */
  unsure: string[];
}

export const BANK_STATEMENTS: Sample[] = [
  {
    name: 'statement-labels',
    documentType: 'bank_statement',
    draw: [
      [40, 40, 'Riverside Community Bank', 20],
      [40, 70, '100 Main Street, Springfield'],
      [40, 110, 'Statement date: October 31, 2026'],
      [40, 135, 'Account holder: Maria Santos'],
      [40, 160, 'Account type: Savings'],
      [40, 185, 'Account number: XXXX-XXXX-4821'],
      [40, 220, 'Beginning balance: $2,100.00'],
      [40, 245, 'Deposits: $1,500.00'],
      [40, 270, 'Ending balance: $3,456.78'],
    ],
    expected: { institution: 'Riverside Community Bank', accountType: 'savings', last4: '4821', balance: 3456.78, statementDate: '2026-10-31' },
    unsure: [],
  },
  {
    name: 'statement-columns',
    documentType: 'bank_statement',
    draw: [
      [40, 40, 'FIRST HARBOR CREDIT UNION', 18],
      [40, 90, 'Statement Period'], [300, 90, 'Account Number'],
      [40, 110, '10/01/2026 - 10/31/2026'], [300, 110, 'XXXXXX7730'],
      [40, 160, 'Checking Account Summary', 14],
      [40, 190, 'Beginning Balance'], [170, 190, 'Deposits'], [270, 190, 'Withdrawals'], [400, 190, 'Ending Balance'],
      [40, 210, '1,200.00'], [170, 210, '2,500.00'], [270, 210, '1,850.25'], [400, 210, '1,849.75'],
    ],
    expected: { institution: 'FIRST HARBOR CREDIT UNION', accountType: 'checking', last4: '7730', balance: 1849.75, statementDate: '2026-10-31' },
    unsure: [],
  },
  {
    name: 'statement-bare-heading',
    documentType: 'bank_statement',
    draw: [
      [40, 40, 'Maple & Pine', 22],
      [40, 80, 'Certificate of Deposit'],
      [40, 105, 'Account ending in 0192'],
      [40, 140, 'Balance as of 2026-09-30: 10,000.00'],
    ],
    expected: { institution: 'Maple & Pine', accountType: 'certificate_of_deposit', last4: '0192', balance: 10000, statementDate: '2026-09-30' },
    unsure: ['institution'],
  },
];

export const PAY_STUBS: Sample[] = [
  {
    name: 'stub-labels',
    documentType: 'pay_stub',
    draw: [
      [40, 40, 'Earnings Statement', 18],
      [40, 80, 'Employer: Acme Widgets Inc.'],
      [40, 105, 'Employee: Maria Santos'],
      [40, 130, 'Pay date: 11/14/2026'],
      [40, 155, 'Pay period: 10/27/2026 - 11/09/2026'],
      [40, 190, 'Gross pay: $2,150.00'],
      [40, 215, 'Net pay: $1,720.40'],
    ],
    expected: { employerName: 'Acme Widgets Inc.', payDate: '2026-11-14', periodStart: '2026-10-27', periodEnd: '2026-11-09', grossPay: 2150, frequency: 'bi_weekly' },
    unsure: [],
  },
  {
    name: 'stub-table',
    documentType: 'pay_stub',
    draw: [
      [40, 40, 'Harbor View Hospital', 18],
      [40, 65, '12 Harbor Road, Springfield'],
      [40, 100, 'Period Beginning'], [200, 100, 'Period Ending'], [360, 100, 'Check Date'],
      [40, 120, '11/01/2026'], [200, 120, '11/15/2026'], [360, 120, '11/20/2026'],
      [40, 160, 'Earnings'], [200, 160, 'Hours'], [300, 160, 'Current'], [420, 160, 'YTD'],
      [40, 180, 'Regular'], [200, 180, '80.00'], [300, 180, '1,800.00'], [420, 180, '21,600.00'],
      [40, 200, 'Gross Pay'], [300, 200, '1,800.00'], [420, 200, '21,600.00'],
    ],
    expected: { employerName: 'Harbor View Hospital', payDate: '2026-11-20', periodStart: '2026-11-01', periodEnd: '2026-11-15', grossPay: 1800, frequency: 'semimonthly' },
    unsure: [],
  },
  {
    name: 'stub-bare-heading',
    documentType: 'pay_stub',
    draw: [
      [40, 40, 'Sunrise Bakery', 20],
      [40, 80, 'Date paid 2026-11-07'],
      [40, 105, 'Period start 2026-10-31'],
      [40, 130, 'Period end 2026-11-06'],
      [40, 165, 'Gross earnings $ 612.50'],
      [40, 190, 'Net pay $ 540.10'],
    ],
    expected: { employerName: 'Sunrise Bakery', payDate: '2026-11-07', periodStart: '2026-10-31', periodEnd: '2026-11-06', grossPay: 612.5, frequency: 'weekly' },
    unsure: ['employerName'],
  },
];

/** A one-page text PDF of the sample (half-letter landscape, so its image stays small). */
export async function samplePdf(sample: Sample): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 320]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [x, y, text, size] of sample.draw) page.drawText(text, { x, y: 320 - y - (size ?? 12), size: size ?? 12, font, color: rgb(0, 0, 0) });
  return Buffer.from(await doc.save());
}

const run = promisify(execFile);

/** The PDF's first page as a grey PNG at `dpi` (pdftoppm). */
export async function renderPng(pdf: Buffer, dpi = 150): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'statement-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    await run('pdftoppm', ['-png', '-gray', '-r', String(dpi), '-singlefile', join(dir, 'in.pdf'), join(dir, 'out')]);
    return await readFile(join(dir, 'out.png'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A PDF holding only the page's image: a scan saved as PDF (no text of its own). */
export async function imageOnlyPdf(png: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const page = doc.addPage([612, 320]);
  page.drawImage(image, { x: 0, y: 0, width: 612, height: 320 });
  return Buffer.from(await doc.save());
}
