// The log scan of a whole test run: every API log line written by the test stacks
// (tests/.artifacts/logs/api-*.ndjson) is searched for every secret the product handed out during the
// run (the ledger, tests/.artifacts/logs/secrets-*.ndjson: OTP codes, reset and verification tokens,
// refresh and device tokens, SSN/ITIN/alien numbers entered), and for anything shaped like an SSN.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Fields pino adds to every line; a process id or a timestamp is not a leak even if its digits match a code.
const FRAME_FIELDS = ['pid', 'time', 'hostname', 'level', 'reqId', 'responseTime'];
const SSN_SHAPE = /^\d{3}-\d{2}-\d{4}$/;

async function readLines(file) {
  const text = await readFile(file, 'utf8');
  return text.split('\n').filter((l) => l.trim() !== '');
}

/** @returns {Promise<{ files: number, lines: number, secrets: number, leaks: { file: string, line: number, kind: string }[] }>} */
export async function scanLogs(dir) {
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return { files: 0, lines: 0, secrets: 0, leaks: [] };
  }
  const secrets = new Map();
  for (const name of names.filter((n) => n.startsWith('secrets-') && n.endsWith('.ndjson'))) {
    for (const line of await readLines(join(dir, name))) {
      try {
        const { kind, value } = JSON.parse(line);
        if (typeof value === 'string' && value.length >= 6) secrets.set(value, kind);
      } catch {
        // a line cut by a crash: nothing to look for
      }
    }
  }
  const leaks = [];
  let lines = 0;
  const logs = names.filter((n) => n.startsWith('api-') && n.endsWith('.ndjson'));
  for (const name of logs) {
    const all = await readLines(join(dir, name));
    all.forEach((raw, index) => {
      lines++;
      let text = raw;
      try {
        const entry = JSON.parse(raw);
        for (const field of FRAME_FIELDS) delete entry[field];
        text = JSON.stringify(entry);
      } catch {
        // not JSON: scan the raw line
      }
      // Every run of token characters is one candidate: exact matches only, no partial digits.
      for (const token of text.match(/[A-Za-z0-9_-]+/g) ?? []) {
        const kind = secrets.get(token) ?? (SSN_SHAPE.test(token) ? 'ssn-shaped' : null);
        if (kind) leaks.push({ file: name, line: index + 1, kind });
      }
    });
  }
  return { files: logs.length, lines, secrets: secrets.size, leaks };
}
