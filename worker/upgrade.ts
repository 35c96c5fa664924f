/**
 * `npm run cluster:upgrade -- --build-id <B> [replay:check options]`: steps 1 and 3 of the README's
 * "Rolling upgrade" as one gated command. The live histories are replayed through this checkout's
 * workflow code (or `--bundle`, B's build); only when every one replays is build B, whose workers
 * must already be polling, made the deployment's current build. Exit 0: B is current; 1: refused
 * (the replay report says which workflows and why) or B never registered; 2: usage.
 */
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { runMain } from '../infra/config';
import { makeBuildCurrent } from '../infra/temporal/deployment';
import { connectAsWorker, formatReplayReport, runReplayCheck } from './replay';
import { parseReplayCheckArgs, UsageError } from './replay-args';

Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });

const say = (line: string) => process.stderr.write(`cluster:upgrade: ${line}\n`);

await runMain('cluster:upgrade', async () => {
  const argv = process.argv.slice(2);
  const own = parseArgs({ args: argv, options: { 'build-id': { type: 'string' }, deployment: { type: 'string' } }, strict: false });
  const buildId = own.values['build-id'];
  const deployment = (own.values.deployment as string | undefined) ?? process.env.WORKER_DEPLOYMENT_NAME ?? 'housing-portal';
  const rest = argv.filter((arg, i) => !['--build-id', '--deployment'].includes(arg) && !['--build-id', '--deployment'].includes(argv[i - 1] ?? ''));
  let options;
  try {
    if (typeof buildId !== 'string' || !buildId) throw new UsageError('--build-id <the new build> is required');
    options = parseReplayCheckArgs(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\nusage: npm run cluster:upgrade -- --build-id <B> [--deployment <name>] [npm run replay:check options]\n`);
    process.exit(2);
  }

  const report = await runReplayCheck(options, say);
  process.stdout.write(`${formatReplayReport(report, options)}\n`);
  if (report.failures.length > 0) {
    say(`refused: build ${buildId} would not replay ${report.failures.length} running workflow(s); it is not made current`);
    process.exit(1);
  }

  const connection = await connectAsWorker(options);
  try {
    const before = await makeBuildCurrent(connection, options.namespace, deployment, buildId);
    say(
      before === buildId
        ? `build ${buildId} was already current`
        : `build ${buildId} is current${before ? `; roll back with: npm run cluster:upgrade -- --build-id ${before} (while its workers still run)` : ''}`,
    );
  } finally {
    await connection.close();
  }
  process.exit(0);
});
