#!/usr/bin/env node
// `npm test`: runs every test with Vitest, then closes with one summary line
// ("tests: N passed, N failed, N skipped") read from Vitest's JSON report.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { scanLogs } from './log-scan.mjs';

// A group run with its own config (`--config tests/cluster/vitest.config.ts`) keeps its report and
// logs apart, so it does not overwrite those of the main run before it.
const configArg = process.argv.indexOf('--config');
const group = configArg >= 0 ? basename(dirname(process.argv[configArg + 1] ?? '')) : '';
const outDir = group ? join('tests', '.artifacts', group) : join('tests', '.artifacts');
const report = join(outDir, 'vitest-report.json');
// The API logs of this run only: the log scan below reads what the test stacks write here.
const logDir = join(outDir, 'logs');
await mkdir(outDir, { recursive: true });
await rm(report, { force: true });
await rm(logDir, { recursive: true, force: true });

const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const code = await new Promise((done) => {
  const child = spawn('npx', args, { stdio: 'inherit' });
  child.once('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0)));
});

let summary;
try {
  const result = JSON.parse(await readFile(report, 'utf8'));
  const failedSuites = result.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  summary = {
    passed: result.numPassedTests,
    failed: result.numFailedTests + failedSuites,
    skipped: result.numPendingTests + result.numTodoTests,
  };
} catch {
  summary = { passed: 0, failed: 1, skipped: 0 };
  console.error('no test report was written: the run failed before tests could report');
}
// One more check after every suite ran: no secret handed out during the run appears in the API's logs.
// On the whole suite, logs and secrets must exist (a scan of nothing proves nothing).
const wholeRun = !group && process.argv.slice(2).filter((a) => !a.startsWith('-')).length === 0;
const scan = await scanLogs(logDir);
const empty = scan.lines === 0 || scan.secrets === 0;
if (scan.leaks.length > 0 || (wholeRun && empty)) {
  summary.failed += 1;
  console.error(`log scan FAILED: ${scan.leaks.length} secret(s) in ${scan.lines} log lines of ${scan.files} file(s) (${scan.secrets} secrets issued)`);
  for (const leak of scan.leaks.slice(0, 20)) console.error(`  ${leak.kind} in ${join(logDir, leak.file)} line ${leak.line}`);
  if (empty) console.error('  the run wrote no API log lines or issued no secrets: nothing was scanned');
} else if (scan.lines > 0) {
  summary.passed += 1;
  console.log(`log scan: no secret in ${scan.lines} API log lines of ${scan.files} file(s) (${scan.secrets} secrets issued during the run)`);
}
console.log(`\ntests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
process.exit(code !== 0 ? code : summary.failed > 0 || summary.passed === 0 ? 1 : 0);
