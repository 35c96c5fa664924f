import { Client, type WorkflowClientInterceptor } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../api/app';
import { dataConverter } from '../../infra/temporal/connection';
import type { Stack } from './stack';

/** A second API over a test stack that counts each database query it sends and each Temporal call it makes. */
export interface CountingApi {
  api: FastifyInstance;
  /** Kysely operation kinds of the queries sent since the last `reset`. */
  queries: string[];
  /** Temporal calls ('start', 'update', 'query', 'signal', 'describe') since the last `reset`. */
  temporalCalls: string[];
  reset(): void;
}

export async function countingApi(stack: Stack): Promise<CountingApi> {
  const queries: string[] = [];
  const temporalCalls: string[] = [];
  const countQueries: KyselyPlugin = {
    transformQuery: (args) => {
      queries.push(args.node.kind);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const count = (name: string) => async <T>(input: unknown, next: (input: never) => Promise<T>) => {
    temporalCalls.push(name);
    return next(input as never);
  };
  const countTemporal: WorkflowClientInterceptor = {
    start: count('start'),
    startUpdate: count('update'),
    query: count('query'),
    signal: count('signal'),
    describe: count('describe'),
  };
  const temporal = new Client({
    connection: stack.temporal.connection,
    namespace: stack.config.TEMPORAL_NAMESPACE,
    dataConverter: dataConverter(stack.config),
    interceptors: { workflow: [countTemporal] },
  });
  const api = await buildApp({ config: stack.config, db: stack.db.withPlugin(countQueries), temporal, blobs: stack.blobs });
  await api.ready();
  return {
    api,
    queries,
    temporalCalls,
    reset() {
      queries.length = 0;
      temporalCalls.length = 0;
    },
  };
}
