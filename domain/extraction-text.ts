// Reading a document's text: dates and amounts in it, and the value a label names wherever it
// stands (after it, under it, or as a column of a table). The rules look for labels, not
// positions, so they work on a PDF's own text and on OCR of a scan alike.

/** A field read with less confidence than this is marked for confirmation. */
export const CONFIRM_BELOW = 0.8;

/** One line of a document's text, with how sure its reading is (1 for a PDF's own text, OCR's own measure for a scan). */
export interface TextLine {
  text: string;
  confidence: number;
}

/** One field read from a document, with how sure the reading is. */
export interface ExtractedField<T> {
  value: T | null;
  /** 0..1: how sure the reading is (0 when nothing was found). */
  confidence: number;
  /** True when the resident should look at this one closely (low confidence or not found). */
  confirm: boolean;
}

// ---------------------------------------------------------------------------------------------
// Values in text

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_WORD = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE_PATTERNS: { re: RegExp; read: (m: RegExpExecArray) => [number, number, number] }[] = [
  { re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, read: (m) => [+m[1]!, +m[2]!, +m[3]!] },
  { re: /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/g, read: (m) => [year(m[3]!), +m[1]!, +m[2]!] },
  { re: new RegExp(`\\b${MONTH_WORD}\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'gi'), read: (m) => [+m[3]!, month(m[1]!), +m[2]!] },
  { re: new RegExp(`\\b(\\d{1,2})\\s+${MONTH_WORD},?\\s+(\\d{4})\\b`, 'gi'), read: (m) => [+m[3]!, month(m[2]!), +m[1]!] },
];
function year(y: string): number {
  return y.length === 2 ? 2000 + Number(y) : Number(y);
}
function month(word: string): number {
  return MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
}
function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1990 || y > 2100) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return date.toISOString().slice(0, 10);
}

/** Every date in a piece of text, in the order they appear (ISO YYYY-MM-DD). */
export function datesIn(text: string): string[] {
  const found: { at: number; value: string }[] = [];
  const taken: [number, number][] = [];
  for (const { re, read } of DATE_PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      const value = iso(...read(m));
      if (value) {
        found.push({ at: start, value });
        taken.push([start, end]);
      }
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.value);
}

const MONEY = /(?<![\d.,/-])(\(?-?\s?\$?\s?\d{1,3}(?:,\d{3})+(?:\.\d{2})?\)?|\(?-?\s?\$?\s?\d+\.\d{2}\)?)(?![\d/])/g;
/** Every amount of money in a piece of text ("$1,234.56", "1 234.56", "(12.00)" is negative). */
export function amountsIn(text: string): number[] {
  const out: number[] = [];
  MONEY.lastIndex = 0;
  for (let m = MONEY.exec(text); m; m = MONEY.exec(text)) {
    const raw = m[1]!;
    const negative = raw.includes('-') || (raw.startsWith('(') && raw.endsWith(')'));
    const n = Number(raw.replace(/[^\d.]/g, ''));
    if (Number.isFinite(n)) out.push(negative ? -n : n);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Labels and their values

export interface Found<T> {
  value: T;
  /** The rule's own certainty, before the reading's. */
  certainty: number;
  line: TextLine;
}

/** A line's text with the label matched removed, and where the rest starts. */
function afterLabel(text: string, label: RegExp): string | null {
  const m = new RegExp(label.source, 'i').exec(text);
  if (!m) return null;
  return text.slice(m.index + m[0].length).replace(/^\s*[:#.\-–]?\s*/, '');
}

/**
 * The value of a label, wherever it is: on the label's own line after it; or on the next line,
 * either right under it (a label above its value) or as the same column of a table (a row of
 * labels above a row of values, told apart by their order, so OCR's lost spacing does not matter).
 */
export function labelled<T>(lines: TextLine[], label: RegExp, read: (text: string) => T[], certainty: number, columns?: RegExp): Found<T> | null {
  for (const [i, line] of lines.entries()) {
    const rest = afterLabel(line.text, label);
    if (rest === null) continue;
    const same = read(rest);
    if (same.length > 0) return { value: same[0]!, certainty, line };
    const next = lines[i + 1];
    if (!next) continue;
    const below = read(next.text);
    if (below.length === 0) continue;
    // A table: the label is the k-th of several of this kind on its line; take the k-th value.
    const column = columns ? columnOf(line.text, label, columns) : null;
    const value = column !== null && below.length > column ? below[column]! : below[0]!;
    return { value, certainty: certainty - 0.05, line: next };
  }
  return null;
}

/** Labels that head a date column (a row of dates under "Period beginning  Period ending  Check date"). */
export const DATE_LABEL = /period\s+(start|beginning|begin|from|end|ending)|(pay|check|payment|deposit|advice|statement|closing)\s+date|date\s+paid|pay\s+period|statement\s+period/gi;
/** Labels that head a money column, to tell "Current  YTD" and "Beginning  Ending balance" columns apart. */
export const MONEY_LABEL = /(beginning|opening|previous|ending|closing|new|current|available)\s+balance|gross\s+pay|net\s+pay|deductions|taxes|ytd|year\s+to\s+date|deposits|withdrawals/gi;
function columnOf(text: string, label: RegExp, kinds: RegExp): number | null {
  const at = new RegExp(label.source, 'i').exec(text)?.index;
  if (at === undefined) return null;
  kinds.lastIndex = 0;
  let k = 0;
  for (let m = kinds.exec(text); m; m = kinds.exec(text)) {
    if (m.index >= at) return k;
    k++;
  }
  return null;
}

export function field<T>(found: Found<T> | null): ExtractedField<T> {
  if (!found) return { value: null, confidence: 0, confirm: true };
  // An OCR line read with 90% certainty costs 0.05; one read with 60% costs 0.2.
  const confidence = Math.round(Math.max(0, Math.min(1, found.certainty - (1 - found.line.confidence) * 0.5)) * 100) / 100;
  return { value: found.value, confidence, confirm: confidence < CONFIRM_BELOW };
}

export function first<T>(...candidates: (() => Found<T> | null)[]): Found<T> | null {
  for (const c of candidates) {
    const f = c();
    if (f) return f;
  }
  return null;
}

export const text = (max = 120) => (s: string) => {
  const v = s.replace(/\s{2,}.*$/, '').replace(/[|]/g, '').trim().slice(0, max);
  return /[\p{L}]/u.test(v) ? [v] : [];
};

const NOT_A_NAME = /\b(statement|account|page|period|date|balance|summary|earnings|pay\s*stub|payslip|pay\s+statement|earnings\s+statement|customer|member|employee|address|street|ave|road|po\s+box)\b/i;

/** A line that could be a name: has letters, no amounts or dates, few digits. */
function nameLike(line: TextLine): string | null {
  // "City Hospital - pay stub": the name before a dash or bar that starts a description.
  const t = line.text.replace(/\s{2,}.*$/, '').split(/\s+[-–|]\s+/)[0]!.trim();
  if (!/\p{L}{2,}/u.test(t) || /\d{2,}/.test(t) || NOT_A_NAME.test(t) || t.length > 80) return null;
  return t;
}

export function headerName(lines: TextLine[], words: RegExp, certainty: number, fallback: number): Found<string> | null {
  const top = lines.slice(0, 6);
  for (const line of top) {
    const name = nameLike(line);
    if (name && words.test(name)) return { value: name, certainty, line };
  }
  for (const line of top) {
    const name = nameLike(line);
    if (name) return { value: name, certainty: fallback, line };
  }
  return null;
}

export function anywhere<T>(lines: TextLine[], read: (text: string) => T[], certainty: number, only?: RegExp): Found<T> | null {
  for (const line of lines) {
    if (only && !only.test(line.text)) continue;
    const values = read(line.text);
    if (values.length) return { value: values[0]!, certainty, line };
  }
  return null;
}
