#!/usr/bin/env node
// `npm test`: runs every test with Vitest, then closes with one summary line
// ("tests: N passed, N failed, N skipped") read from Vitest's JSON report.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

const outDir = join('tests', '.artifacts');
const report = join(outDir, 'vitest-report.json');
await mkdir(outDir, { recursive: true });
await rm(report, { force: true });

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
console.log(`\ntests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
process.exit(code !== 0 ? code : summary.failed > 0 || summary.passed === 0 ? 1 : 0);
