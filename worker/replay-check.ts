/**
 * `npm run replay:check -- --address <host:port> --namespace <ns> [--query <q>] [--sample N]`: the
 * deploy gate of infra/production/README.md. Replays the histories of the workflows running on a
 * cluster through this checkout's workflow code; exit 0 when every one replays, 1 naming each that
 * does not (workflow, type, first nondeterministic event), 2 on a usage error.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { runMain } from '../infra/config';
import { formatReplayReport, runReplayCheck } from './replay';
import { parseReplayCheckArgs, UsageError } from './replay-args';

// Before anything native: the SDK's own warnings (the nondeterminism it reports to us) stay out of the output.
Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });

await runMain('replay:check', async () => {
  let options;
  try {
    options = parseReplayCheckArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const report = await runReplayCheck(options, (line) => process.stderr.write(`replay:check: ${line}\n`));
  process.stdout.write(`${formatReplayReport(report, options)}\n`);
  process.exit(report.failures.length > 0 ? 1 : 0);
});
