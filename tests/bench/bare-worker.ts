/**
 * The bare Temporal worker of `npm run bench`: the same server, payload codec and SDK as the
 * portal's worker, with only the trivial workflow of bare-workflows.ts on its own task queue, in
 * its own process (so its memory per cached workflow can be read beside the portal worker's).
 */
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig, runMain } from '../../infra/config';
import { dataConverter, temporalConnectionOptions } from '../../infra/temporal/connection';

await runMain('bare worker', async () => {
  const config = loadConfig();
  const connection = await NativeConnection.connect(await temporalConnectionOptions(config));
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: process.env.BARE_TASK_QUEUE ?? 'bench-bare',
    workflowsPath: fileURLToPath(new URL('./bare-workflows.ts', import.meta.url)),
    dataConverter: dataConverter(config),
  });
  process.stdout.write('bare worker polling\n');
  try {
    await worker.run();
  } finally {
    await connection.close();
  }
});
