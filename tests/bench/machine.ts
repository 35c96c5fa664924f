import { readFile } from 'node:fs/promises';
import { cpus, freemem, loadavg, totalmem } from 'node:os';

/** The machine a run's figures come from: printed first, since other work on it moves every figure. */
export function machineFacts(): string {
  const cores = cpus();
  const gb = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GB`;
  const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
  return [
    `cores: ${cores.length} (${cores[0]?.model.trim() ?? 'unknown'})`,
    `load average 1/5/15 min: ${load}`,
    `memory: ${gb(totalmem())} total, ${gb(freemem())} free`,
    `node ${process.version}, ${process.platform}-${process.arch}`,
  ].join('\n');
}

export function loadNow(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' / ');
}

/** A process's resident memory in bytes (Linux /proc), or NaN when it cannot be read. */
export async function rssOf(pid: number | undefined): Promise<number> {
  if (!pid) return Number.NaN;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
