import { createHash } from 'node:crypto';
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import type { Language } from '../../domain';
import type { BlobStore } from '../blobs';
import { LetterFonts } from './fonts';
import { isLetterLanguage, letterText } from './text';

/**
 * Letters as PDFs (pdf-lib, Unicode Noto fonts subset into the file) in blob storage, reusable by
 * every workflow that issues one: the lease-up income certification (TIC) and lease letter, and the
 * recertification TIC. The last page is the signature page: one slot per signer, and each
 * signature is drawn into the next free slot with the signer's name, time and IP.
 *
 *   const pdf = await renderLetterPdf(content);            // e.g. activities/income-certification.ts builds content
 *   await storeLetter(blobs, key, pdf);
 *   const { key: signedKey, sha256 } = await stampSignature(blobs, { letterKey: key, ... });
 */
export interface LetterContent {
  language: Language;
  title: string;
  /** Shown under the title (organisation, reference). */
  subtitle?: string;
  sections: { heading?: string; lines: string[] }[];
  signatureHeading: string;
  /** One slot each on the signature page, in signing order (head of household first). */
  signers: { name: string }[];
}

const PAGE: [number, number] = [612, 792];
const MARGIN = 56;
const WIDTH = PAGE[0] - 2 * MARGIN;
const TOP = 740;
const BOTTOM = 70;
const INK = rgb(0.1, 0.1, 0.1);
/** Height of one signer's slot on the signature page; slots that do not fit go on a further page. */
const SLOT = 92;
const SLOTS_PER_PAGE = Math.floor((TOP - 40 - BOTTOM) / SLOT);

/** Where slot `n` of the signature pages is: its page (counted from the first signature page) and top. */
const slotAt = (n: number) => ({ page: Math.floor(n / SLOTS_PER_PAGE), top: TOP - 40 - (n % SLOTS_PER_PAGE) * SLOT });

/** The letter's bookkeeping kept in the PDF's keywords: language, first signature page, signatures so far. */
interface Bookkeeping {
  language: Language;
  signaturePage: number;
  signatures: number;
}
const writeBookkeeping = (pdf: PDFDocument, b: Bookkeeping) => pdf.setKeywords([`lang=${b.language}`, `sigpage=${b.signaturePage}`, `signatures=${b.signatures}`]);
function readBookkeeping(pdf: PDFDocument): Bookkeeping {
  const keywords = pdf.getKeywords() ?? '';
  const language = keywords.match(/lang=(\w+)/)?.[1];
  return {
    language: isLetterLanguage(language) ? language : 'en',
    // Letters made before the signature page existed are signed on their last page.
    signaturePage: Number(keywords.match(/sigpage=(\d+)/)?.[1] ?? pdf.getPageCount() - 1),
    signatures: Number(keywords.match(/signatures=(\d+)/)?.[1] ?? 0),
  };
}

export async function renderLetterPdf(content: LetterContent): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(content.title);
  pdf.setLanguage(content.language);
  pdf.setProducer('Housing portal');
  const fonts = new LetterFonts(pdf);
  let page = pdf.addPage(PAGE);
  let y = TOP;
  const write = async (text: string, size: number, gap: number, weight: 400 | 700 = 400) => {
    for (const line of await fonts.wrap(text, size, WIDTH, weight)) {
      if (y < BOTTOM) {
        page = pdf.addPage(PAGE);
        y = TOP;
      }
      await fonts.draw(page, line, { x: MARGIN, y, size, weight, color: INK });
      y -= gap;
    }
  };
  await write(content.title, 17, 26, 700);
  if (content.subtitle) await write(content.subtitle, 10, 22);
  for (const section of content.sections) {
    if (section.heading) await write(section.heading, 12, 18, 700);
    for (const line of section.lines) await write(line, 10.5, 15);
    y -= 8;
  }

  const signaturePage = pdf.getPageCount();
  const pages: PDFPage[] = [];
  const slotPage = (n: number) => {
    while (pages.length <= n) pages.push(pdf.addPage(PAGE));
    return pages[n]!;
  };
  await fonts.draw(slotPage(0), content.signatureHeading, { x: MARGIN, y: TOP, size: 14, weight: 700, color: INK });
  for (const [n, signer] of content.signers.entries()) {
    const slot = slotAt(n);
    const target = slotPage(slot.page);
    await fonts.draw(target, signer.name, { x: MARGIN, y: slot.top, size: 10.5, color: INK });
    target.drawLine({ start: { x: MARGIN, y: slot.top - 62 }, end: { x: MARGIN + 260, y: slot.top - 62 }, thickness: 0.6, color: rgb(0.5, 0.5, 0.5) });
  }
  writeBookkeeping(pdf, { language: content.language, signaturePage, signatures: 0 });
  return Buffer.from(await pdf.save());
}

export async function storeLetter(blobs: BlobStore, key: string, pdf: Buffer): Promise<string> {
  await blobs.put(key, pdf, 'application/pdf');
  return key;
}

export interface SignatureStamp {
  letterKey: string;
  /** Blob key of the signer's PNG signature image. */
  signatureKey: string;
  signedKey: string;
  signerName: string;
  signedAt: string;
  ipAddress: string;
}

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Draws the signature image into the next free slot of the signature page, with the signer's
 * name, the time and the client IP in the letter's language, and stores the signed copy under
 * `signedKey`: that copy is the record, and its SHA-256 is returned to be kept with the case.
 * A retry writes the same key again (font subsets get fresh names, so the bytes may differ): the
 * hash returned is always that of the copy stored by the same attempt.
 */
export async function stampSignature(blobs: BlobStore, s: SignatureStamp): Promise<{ key: string; sha256: string }> {
  const [letter, signature] = await Promise.all([blobs.get(s.letterKey), blobs.get(s.signatureKey)]);
  if (!letter) throw new Error(`letter not found: ${s.letterKey}`);
  if (!signature) throw new Error(`signature image not found: ${s.signatureKey}`);
  const pdf = await PDFDocument.load(letter.body, { updateMetadata: false });
  const book = readBookkeeping(pdf);
  const fonts = new LetterFonts(pdf);
  const image = await pdf.embedPng(signature.body);
  const slot = slotAt(book.signatures);
  while (pdf.getPageCount() <= book.signaturePage + slot.page) pdf.addPage(PAGE);
  const page = pdf.getPage(book.signaturePage + slot.page);
  const scaled = image.scaleToFit(200, 40);
  page.drawImage(image, { x: MARGIN, y: slot.top - 60, width: scaled.width, height: scaled.height });
  const w = letterText(book.language);
  const stamp = w.t('signedStamp', { name: s.signerName, time: s.signedAt, ip: s.ipAddress || w.t('ipUnknown') });
  for (const [i, line] of (await fonts.wrap(stamp, 8.5, WIDTH, 400)).entries()) {
    await fonts.draw(page, line, { x: MARGIN, y: slot.top - 74 - i * 11, size: 8.5, color: INK });
  }
  writeBookkeeping(pdf, { ...book, signatures: book.signatures + 1 });
  const bytes = Buffer.from(await pdf.save());
  await blobs.put(s.signedKey, bytes, 'application/pdf');
  return { key: s.signedKey, sha256: sha256Of(bytes) };
}
