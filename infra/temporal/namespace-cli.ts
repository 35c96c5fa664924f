/**
 * `npm run temporal:namespace`: makes the portal's namespace (TEMPORAL_NAMESPACE, retention 30 days)
 * and its custom search attributes on the Temporal cluster at TEMPORAL_ADDRESS; running it again
 * changes nothing. Uses the worker's TLS or API-key settings.
 */
import { Connection } from '@temporalio/client';
import { runMain } from '../config';
import { ensureNamespace } from './namespace';
import { temporalConnectionOptions } from './connection';

await runMain('temporal:namespace', async () => {
  const env = process.env;
  if (!env.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required (host:port of the Temporal frontend)');
  const namespace = env.TEMPORAL_NAMESPACE ?? 'default';
  const connection = await Connection.connect(
    await temporalConnectionOptions({
      TEMPORAL_ADDRESS: env.TEMPORAL_ADDRESS,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TLS_CERT_PATH: env.TEMPORAL_TLS_CERT_PATH,
      TEMPORAL_TLS_KEY_PATH: env.TEMPORAL_TLS_KEY_PATH,
      TEMPORAL_TLS_CA_PATH: env.TEMPORAL_TLS_CA_PATH,
      TEMPORAL_API_KEY: env.TEMPORAL_API_KEY,
      DATA_ENCRYPTION_KEY: '',
    }),
  );
  try {
    const done = await ensureNamespace(connection, namespace);
    process.stdout.write(`namespace ${namespace}: ${done.created ? 'registered' : 'present'}; search attributes: ${done.searchAttributes.join(', ')}\n`);
  } finally {
    await connection.close();
  }
});
