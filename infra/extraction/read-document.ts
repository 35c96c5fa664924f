import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TextLine } from '../../domain/extraction';

/**
 * The text of an uploaded statement or pay stub, as lines in reading order with how sure the
 * reading is (1 for a PDF's own text). A PDF with text is read with pdf.js (pdfjs-dist); a scanned
 * image (PNG, JPEG, TIFF) or a PDF with no text (a scan saved as PDF: each page rendered first) is
 * read by OCR with tesseract.js. Everything is local: the OCR engine (tesseract.js-core) and the
 * English model (@tesseract.js-data/eng) come from node_modules, so nothing is fetched at run time.
 */
export interface ReadResult {
  source: 'pdf_text' | 'ocr';
  lines: TextLine[];
}

const require = createRequire(import.meta.url);
/** Where the packaged English model lives (LSTM-only, integer: the smallest and fastest). */
export const OCR_LANG_PATH = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
/** Pages of a scanned PDF read at most (statements and stubs put their figures on the first pages). */
const MAX_OCR_PAGES = 3;
/** A PDF page needs this many characters of its own text to be read without OCR. */
const MIN_TEXT_CHARS = 20;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | null = null;
const loadPdfJs = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

interface PdfItem { str: string; x: number; y: number; width: number; height: number }

/** Items of one page grouped into lines by their baseline, left to right; wide gaps become two spaces. */
export function itemsToLines(items: PdfItem[]): string[] {
  const sorted = items.filter((i) => i.str.trim() !== '').sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: PdfItem[][] = [];
  for (const item of sorted) {
    const row = rows.find((r) => Math.abs(r[0]!.y - item.y) <= Math.max(2, item.height * 0.4));
    if (row) row.push(item);
    else rows.push([item]);
  }
  return rows
    .sort((a, b) => b[0]!.y - a[0]!.y)
    .map((row) => {
      row.sort((a, b) => a.x - b.x);
      let text = '';
      let end = -Infinity;
      for (const item of row) {
        const gap = item.x - end;
        if (text) text += gap > Math.max(8, item.height * 1.2) ? '  ' : gap > 0.5 ? ' ' : '';
        text += item.str;
        end = item.x + item.width;
      }
      return text.replace(/[ \t]{3,}/g, '  ').trim();
    })
    .filter(Boolean);
}

async function pdfPages(bytes: Buffer) {
  const { getDocument } = await loadPdfJs();
  return getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
}

/** The PDF's own text, page by page. */
async function pdfText(bytes: Buffer): Promise<string[][]> {
  const doc = await pdfPages(bytes);
  try {
    const pages: string[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const items: PdfItem[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        items.push({ str: item.str, x: item.transform[4] as number, y: item.transform[5] as number, width: item.width, height: item.height || Math.abs(item.transform[3] as number) });
      }
      pages.push(itemsToLines(items));
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/** The first pages of a PDF as PNG images (for a scan saved as PDF), with @napi-rs/canvas. */
async function pdfImages(bytes: Buffer): Promise<Buffer[]> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const doc = await pdfPages(bytes);
  try {
    const images: Buffer[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_OCR_PAGES); n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 2 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      // pdf.js types its canvas as the DOM one; @napi-rs/canvas implements the same 2D API.
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
      images.push(canvas.toBuffer('image/png'));
    }
    return images;
  } finally {
    await doc.destroy();
  }
}

/** OCR of images, one tesseract worker for all of them (terminated after). */
async function ocr(images: Buffer[]): Promise<TextLine[]> {
  const { createWorker, OEM } = await import('tesseract.js');
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath: OCR_LANG_PATH, gzip: true, cacheMethod: 'none' });
  try {
    const lines: TextLine[] = [];
    for (const image of images) {
      const { data } = await worker.recognize(image, {}, { blocks: true, text: false });
      for (const block of data.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            const text = line.text.replace(/\s+$/u, '').replace(/[ \t]{3,}/g, '  ').trim();
            if (text) lines.push({ text, confidence: Math.max(0, Math.min(1, line.confidence / 100)) });
          }
        }
      }
    }
    return lines;
  } finally {
    await worker.terminate();
  }
}

/** Reads a document by its content type (the one checked at upload). */
export async function readDocument(bytes: Buffer, contentType: string): Promise<ReadResult> {
  if (contentType === 'application/pdf') {
    const pages = await pdfText(bytes).catch((error: unknown) => {
      // A damaged, empty or password-protected PDF does not get better on a retry.
      if (error instanceof Error && /^(InvalidPDFException|PasswordException|FormatError|MissingPDFException)$/.test(error.name)) throw new UnreadableDocument(`cannot read this PDF (${error.name})`);
      throw error;
    });
    const text = pages.flat();
    if (text.join('').replace(/\s/g, '').length >= MIN_TEXT_CHARS) return { source: 'pdf_text', lines: text.map((t) => ({ text: t, confidence: 1 })) };
    return { source: 'ocr', lines: await ocr(await pdfImages(bytes)) };
  }
  if (contentType === 'image/png' || contentType === 'image/jpeg' || contentType === 'image/tiff') return { source: 'ocr', lines: await ocr([bytes]) };
  throw new UnreadableDocument(`cannot read figures from ${contentType}`);
}

/** A document whose type cannot be read at all: retrying does not help. */
export class UnreadableDocument extends Error {
  override name = 'UnreadableDocument';
}
