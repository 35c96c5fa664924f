/** The bench's printed table: each figure beside its goal and the bare Temporal client's figure. */

export interface FigureRow {
  /** A heading row when set alone (name empty). */
  section?: string;
  name: string;
  value: string;
  goal?: string;
  bare?: string;
  /** Whether the goal is met; null or absent when there is no goal or nothing was measured. */
  met?: boolean | null;
  note?: string;
}

const verdict = (met: boolean | null | undefined) => (met === true ? 'ok' : met === false ? 'MISSED' : '');

/** A Markdown table (it pastes into an issue note as is), columns padded so it also reads as text. */
export function formatTable(rows: readonly FigureRow[]): string {
  const header = ['figure', 'measured', 'goal', 'bare client', 'goal met', 'note'];
  const body = rows.map((r) =>
    r.section !== undefined && r.name === '' ? [`**${r.section}**`, '', '', '', '', ''] : [r.name, r.value, r.goal ?? '', r.bare ?? '', verdict(r.met), r.note ?? ''],
  );
  const cells = [header, ...body].map((row) => row.map((c) => c.replace(/\|/g, '\\|')));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}

/** Milliseconds with a precision that suits their size. */
/** A heading row. */
export const section = (title: string): FigureRow => ({ section: title, name: '', value: '' });

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 100) return `${Math.round(value)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(2)} ms`;
}

/** A signed difference in milliseconds ("+3.1 ms", "-0.40 ms"). */
export function msDelta(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${value >= 0 ? '+' : '-'}${ms(Math.abs(value))}`;
}

export function bytes(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  if (abs >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(2)} MB`;
  if (abs >= 1024) return `${(value / 1024).toFixed(1)} KB`;
  return `${Math.round(value)} B`;
}

export function count(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}
