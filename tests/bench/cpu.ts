/**
 * CPU time of each part of the bench's stack (Linux /proc): what one application costs the worker,
 * the Temporal server, the API and PostgreSQL, so a missed throughput goal says where the machine
 * went. A part is a process with every process under it (PostgreSQL's backends, Temporal's children).
 */
import { readdir, readFile } from 'node:fs/promises';

/** The kernel's clock ticks a second for /proc times (USER_HZ: 100 on Linux for every architecture node runs on). */
const TICKS_PER_SECOND = 100;

export interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** User plus system time, in seconds, its own and that of its children it has waited for. */
  cpuSeconds: number;
}

/**
 * One line of /proc/<pid>/stat. The command name sits in parentheses and may itself hold spaces and
 * parentheses, so the fields are counted from the last ')'.
 */
export function parseProcStat(line: string): ProcStat | null {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = line.slice(close + 2).split(' ');
  // After the name: state, ppid, ..., utime (14th field of the line), stime (15th), then cutime and
  // cstime (16th, 17th): the time of its children that have exited and been waited for. Without
  // these, a part's figure drops when a child exits between two readings (a PostgreSQL backend
  // whose pooled connection closed when idle takes its whole CPU time with it).
  const ppid = Number(rest[1]);
  const times = rest.slice(11, 15).map(Number);
  if (![ppid, ...times].every(Number.isFinite) || times.length < 4) return null;
  const ticks = times.reduce((a, b) => a + b, 0);
  return { pid: Number(line.slice(0, open).trim()), ppid, comm: line.slice(open + 1, close), cpuSeconds: ticks / TICKS_PER_SECOND };
}

/** Every process's stat now (those that exit while being read are skipped). */
export async function readProcesses(): Promise<ProcStat[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').then(parseProcStat, () => null)));
  return stats.filter((s): s is ProcStat => s !== null);
}

/**
 * CPU seconds of each named part: the process `roots[name]` and all its descendants. A process under
 * two roots counts for the nearer one. `byName` adds parts found by command name among the
 * descendants of `under` (the Temporal server, started by the bench's own process).
 */
export function cpuByPart(processes: readonly ProcStat[], roots: Record<string, number | undefined>, byName: { under: number; names: Record<string, string> }): Record<string, number> {
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  const owner = new Map<number, string>();
  for (const [name, pid] of Object.entries(roots)) if (pid) owner.set(pid, name);
  for (const p of processes) {
    const part = byName.names[p.comm];
    if (part && ancestors(byPid, p.pid).includes(byName.under)) owner.set(p.pid, part);
  }
  const totals: Record<string, number> = Object.fromEntries([...Object.keys(roots), ...Object.values(byName.names)].map((name) => [name, 0]));
  for (const p of processes) {
    const part = [p.pid, ...ancestors(byPid, p.pid)].map((pid) => owner.get(pid)).find((name) => name !== undefined);
    if (part) totals[part] = (totals[part] ?? 0) + p.cpuSeconds;
  }
  return totals;
}

function ancestors(byPid: Map<number, ProcStat>, pid: number): number[] {
  const chain: number[] = [];
  for (let p = byPid.get(pid)?.ppid; p && p > 1 && !chain.includes(p); p = byPid.get(p)?.ppid) chain.push(p);
  return chain;
}

/** CPU seconds each part spent between two readings of `cpuByPart`. */
export function cpuSpent(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([name, seconds]) => [name, Math.max(0, seconds - (before[name] ?? 0))]));
}
