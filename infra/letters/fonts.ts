import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';
import { PDFHexString, PDFName, PDFOperator, PDFOperatorNames, type PDFDocument, type PDFFont, type PDFPage, type Color } from 'pdf-lib';

/**
 * Unicode fonts for letters: Noto Sans, Noto Sans Bengali and Noto Sans SC from the maintained
 * @fontsource packages (static 400/700 weights). Fontsource ships each font cut into pieces by
 * unicode-range (its CSS says which piece covers which characters), so a letter embeds only the
 * pieces its text uses, each subset to the glyphs drawn. The WOFF (not WOFF2) pieces are read:
 * fontkit cannot subset WOFF2 glyph tables.
 */
export type Weight = 400 | 700;

interface Face {
  file: string;
  ranges: [number, number][];
  /** Complex script (Bengali): glyphs are reordered and joined, so the text is given as ActualText. */
  shaped: boolean;
}

const require = createRequire(import.meta.url);
/** In order of preference: Latin first, then the scripts of the portal's languages. */
const PACKAGES = [
  { name: '@fontsource/noto-sans', shaped: false },
  { name: '@fontsource/noto-sans-bengali', shaped: true },
  { name: '@fontsource/noto-sans-sc', shaped: false },
];

function parseRanges(value: string): [number, number][] {
  return value.split(',').map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(from!, 16), parseInt(to ?? from!, 16)];
  });
}

const facesByWeight = new Map<Weight, Face[]>();
function facesOf(weight: Weight): Face[] {
  let faces = facesByWeight.get(weight);
  if (faces) return faces;
  faces = [];
  for (const pkg of PACKAGES) {
    const cssPath = require.resolve(`${pkg.name}/${weight}.css`);
    const css = readFileSync(cssPath, 'utf8');
    for (const block of css.split('@font-face').slice(1)) {
      const file = block.match(/url\(\.\/files\/([^)]+\.woff)\)/)?.[1];
      const range = block.match(/unicode-range:\s*([^;]+);/)?.[1];
      if (file && range) faces.push({ file: join(dirname(cssPath), 'files', file), ranges: parseRanges(range), shaped: pkg.shaped && !/latin/.test(file) });
    }
  }
  facesByWeight.set(weight, faces);
  return faces;
}

const covers = (face: Face, cp: number) => face.ranges.some(([a, b]) => cp >= a && cp <= b);

/** Font files read once per process: a worker renders many letters. */
const bytesCache = new Map<string, Buffer>();
const bytesOf = (file: string) => {
  let bytes = bytesCache.get(file);
  if (!bytes) bytesCache.set(file, (bytes = readFileSync(file)));
  return bytes;
};

/**
 * pdf-lib takes a fontkit 1 object and reads a subset through `encodeStream()`; fontkit 2 (the
 * maintained release, whose shaper handles Bengali) encodes a subset at once with `encode()`.
 */
const fontkitForPdfLib = {
  create(data: Uint8Array) {
    const font = fontkit.create(Buffer.from(data)) as fontkit.Font;
    const createSubset = font.createSubset.bind(font);
    font.createSubset = () => {
      const subset = createSubset() as ReturnType<typeof createSubset> & { encodeStream?: () => EventEmitter };
      subset.encodeStream = () => {
        const stream = new EventEmitter();
        setImmediate(() => {
          try {
            stream.emit('data', subset.encode());
            stream.emit('end');
          } catch (error) {
            stream.emit('error', error);
          }
        });
        return stream;
      };
      return subset;
    };
    return font;
  },
};

/** A piece of text drawn in one font. */
interface Run {
  text: string;
  face: Face;
}

/** The fonts of one PDF document: each piece embedded (and subset) the first time it is used. */
export class LetterFonts {
  private embedded = new Map<string, PDFFont>();

  constructor(private readonly pdf: PDFDocument) {
    pdf.registerFontkit(fontkitForPdfLib as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  }

  /** Splits text into runs, keeping a character in the current run while its font covers it (spaces, digits, marks). */
  private runs(text: string, weight: Weight): Run[] {
    const faces = facesOf(weight);
    const runs: Run[] = [];
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const last = runs.at(-1);
      if (last && covers(last.face, cp)) {
        last.text += ch;
        continue;
      }
      // A character no font has (an emoji) is kept in the current run: the PDF shows a blank box, the text stays.
      const face = faces.find((f) => covers(f, cp)) ?? last?.face ?? faces[0]!;
      if (last && last.face === face) last.text += ch;
      else runs.push({ text: ch, face });
    }
    return runs;
  }

  private async fontOf(face: Face): Promise<PDFFont> {
    let font = this.embedded.get(face.file);
    if (!font) {
      font = await this.pdf.embedFont(bytesOf(face.file), { subset: true });
      this.embedded.set(face.file, font);
    }
    return font;
  }

  async width(text: string, size: number, weight: Weight = 400): Promise<number> {
    let width = 0;
    for (const run of this.runs(text, weight)) width += (await this.fontOf(run.face)).widthOfTextAtSize(run.text, size);
    return width;
  }

  /**
   * Draws one line. A line with a complex script (Bengali) is wrapped in one marked-content span whose
   * ActualText is the line as written, so extractors and copy-paste read logical order, not the
   * reordered and joined glyphs.
   */
  async draw(page: PDFPage, text: string, at: { x: number; y: number; size: number; weight?: Weight; color?: Color }): Promise<number> {
    const runs = this.runs(text, at.weight ?? 400);
    const shaped = runs.some((run) => run.face.shaped);
    if (shaped) {
      // An inline property list: pdf-lib writes a dictionary operand as is, though its type lists none.
      const props = this.pdf.context.obj({ ActualText: PDFHexString.fromText(text) }) as unknown as PDFName;
      page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), props]));
    }
    let x = at.x;
    for (const run of runs) {
      const font = await this.fontOf(run.face);
      page.drawText(run.text, { x, y: at.y, size: at.size, font, ...(at.color ? { color: at.color } : {}) });
      x += font.widthOfTextAtSize(run.text, at.size);
    }
    if (shaped) page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
    return x - at.x;
  }

  /** Breaks text into lines no wider than `maxWidth`: at spaces, or between any two CJK characters. */
  async wrap(text: string, size: number, maxWidth: number, weight: Weight = 400): Promise<string[]> {
    const tokens = text.match(/[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef]+\s*|\s+/g) ?? [''];
    const lines: string[] = [];
    let line = '';
    for (const token of tokens) {
      const candidate = line + token;
      if (line && (await this.width(candidate.trimEnd(), size, weight)) > maxWidth) {
        lines.push(line.trimEnd());
        line = token.trimStart();
      } else line = candidate;
    }
    lines.push(line.trimEnd());
    return lines;
  }
}
