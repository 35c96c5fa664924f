/**
 * The public pages people open first on the day a lottery opens (the opportunity list and one
 * opportunity, as an anonymous browser asks for them: brotli accepted), under 50 connections with
 * autocannon, beside a bare `node:http` server answering the same bytes and headers from memory in
 * the same run, in a process of its own as the API is,: how far the API is from what this machine can serve at all.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ms, section, type FigureRow } from '../table';

export interface Throughput {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const CONNECTIONS = 50;
/** Headers node:http writes for each answer or connection, so the bare server's own stand in for them. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
const HEADERS = { 'accept-encoding': 'br, gzip', accept: 'application/json' };

async function hammer(name: string, url: string, seconds: number): Promise<Throughput> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: HEADERS });
  return { name, perSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

/** What the API sends on the wire for `url` (still compressed) and the headers that describe it. */
function wireBytes(url: string): Promise<{ bytes: Buffer; headers: Record<string, string> }> {
  return new Promise((done, fail) => {
    get(url, { headers: HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        // Every header the API sent (security headers included), but those node:http writes itself.
        const headers: Record<string, string> = {};
        for (const [header, value] of Object.entries(res.headers)) {
          if (typeof value === 'string' && !PER_CONNECTION.has(header)) headers[header] = value;
        }
        const bytes = Buffer.concat(chunks);
        done({ bytes, headers: { ...headers, 'content-length': String(bytes.length) } });
      });
      res.on('error', fail);
    }).on('error', fail);
  });
}

/** One page: the API, then a bare server sending the API's bytes and headers, in turn. */
async function page(name: string, url: string, seconds: number): Promise<[Throughput, Throughput]> {
  const { bytes, headers } = await wireBytes(url);
  return serveBare(name, url, bytes, headers, seconds);
}

/** The bare server in its own process (tests/bench/bare-server.mjs), so it does not share a core with autocannon. */
async function startBare(bytes: Buffer, headers: Record<string, string>): Promise<{ port: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../bare-server.mjs', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  child.stdin.write(`${JSON.stringify({ headers, body: bytes.toString('base64') })}\n`);
  const port = await new Promise<number>((done, fail) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const match = /listening (\d+)/.exec(out);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`the bare server exited with ${code} before listening`)));
  });
  return {
    port,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

async function serveBare(name: string, url: string, bytes: Buffer, headers: Record<string, string>, seconds: number): Promise<[Throughput, Throughput]> {
  const bare = await startBare(bytes, headers);
  try {
    const bareFigure = await hammer(`${name} (bare)`, `http://127.0.0.1:${bare.port}/`, seconds);
    const apiFigure = await hammer(name, url, seconds);
    return [apiFigure, bareFigure];
  } finally {
    await bare.stop();
  }
}

export async function measurePublicPages(baseUrl: string, opportunityId: string, seconds = 10): Promise<{ list: [Throughput, Throughput]; detail: [Throughput, Throughput] }> {
  const list = await page('public opportunity list', `${baseUrl}/api/Opportunity/published-opportunities?type=all`, seconds);
  const detail = await page('one opportunity', `${baseUrl}/api/Opportunity/${opportunityId}`, seconds);
  return { list, detail };
}

export function publicPageRows(figures: { list: [Throughput, Throughput]; detail: [Throughput, Throughput] }): FigureRow[] {
  const rows: FigureRow[] = [section(`Public pages at ${CONNECTIONS} connections (autocannon, brotli accepted)`)];
  for (const [api, bare] of [figures.list, figures.detail]) {
    const ratio = api.perSecond / bare.perSecond;
    rows.push({
      name: api.name,
      value: `${api.perSecond.toFixed(0)}/s (${ratio.toFixed(2)}x bare), p50 ${ms(api.p50)}, p99 ${ms(api.p99)}`,
      goal: '>= 0.5x bare',
      bare: `${bare.perSecond.toFixed(0)}/s, p99 ${ms(bare.p99)}`,
      met: api.errors === 0 && api.non2xx === 0 ? ratio >= 0.5 : false,
      note: `${api.errors} errors, ${api.non2xx} non-2xx; the bare node:http server answers the same bytes and headers from memory`,
    });
  }
  return rows;
}
