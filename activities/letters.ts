import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import type { BlobStore } from '../infra/blobs';

/**
 * Letters as PDFs (pdf-lib) in blob storage, reusable by every workflow that issues one: the lease-up
 * income certification (TIC) and lease letter, and the recertification TIC.
 *
 *   const pdf = await renderLetterPdf({ title, sections });
 *   await storeLetter(blobs, key, pdf);
 *   const signedKey = await stampSignature(blobs, { letterKey: key, ... });
 */
export interface LetterContent {
  title: string;
  /** Shown under the title (organisation, date, reference). */
  subtitle?: string;
  sections: { heading?: string; lines: string[] }[];
}

/** The standard fonts only encode WinAnsi; other characters are replaced rather than failing. */
function printable(font: PDFFont, text: string): string {
  return [...text].map((ch) => {
    try {
      font.encodeText(ch);
      return ch;
    } catch {
      return '?';
    }
  }).join('');
}

export async function renderLetterPdf(content: LetterContent): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(content.title);
  pdf.setProducer('Housing portal');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage([612, 792]);
  let y = 740;
  const write = (text: string, size: number, f: PDFFont, gap: number) => {
    if (y < 90) {
      page = pdf.addPage([612, 792]);
      y = 740;
    }
    page.drawText(printable(f, text).slice(0, 110), { x: 56, y, size, font: f, color: rgb(0.1, 0.1, 0.1) });
    y -= gap;
  };
  write(content.title, 18, bold, 26);
  if (content.subtitle) write(content.subtitle, 10, font, 22);
  for (const section of content.sections) {
    if (section.heading) write(section.heading, 12, bold, 18);
    for (const line of section.lines) write(line, 11, font, 16);
    y -= 8;
  }
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

/**
 * Puts the signature image, the signer's name, the time and the client IP on the last page of the
 * letter and stores the signed copy under `signedKey`. Idempotent: the same input gives the same key.
 */
export async function stampSignature(blobs: BlobStore, s: SignatureStamp): Promise<string> {
  const [letter, signature] = await Promise.all([blobs.get(s.letterKey), blobs.get(s.signatureKey)]);
  if (!letter) throw new Error(`letter not found: ${s.letterKey}`);
  if (!signature) throw new Error(`signature image not found: ${s.signatureKey}`);
  const pdf = await PDFDocument.load(letter.body);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const image = await pdf.embedPng(signature.body);
  const pages = pdf.getPages();
  const page = pages[pages.length - 1]!;
  // Each further signer signs a little higher, so several signatures do not overlap.
  const existing = Number(pdf.getKeywords()?.match(/signatures=(\d+)/)?.[1] ?? 0);
  const base = 40 + existing * 70;
  const scaled = image.scaleToFit(160, 45);
  page.drawImage(image, { x: 56, y: base + 14, width: scaled.width, height: scaled.height });
  page.drawText(printable(font, `Signed by ${s.signerName} on ${s.signedAt} from IP ${s.ipAddress || 'unknown'}`), {
    x: 56,
    y: base,
    size: 9,
    font,
  });
  pdf.setKeywords([`signatures=${existing + 1}`]);
  const bytes = Buffer.from(await pdf.save());
  await blobs.put(s.signedKey, bytes, 'application/pdf');
  return s.signedKey;
}
