import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import protoPackage from '@temporalio/proto';
import type { Db } from '../../infra/db/database';
import type { EncryptionCodec } from '../../infra/temporal/codec';
import { notFound } from '../errors';

// What the operator console's services share: their clients, Temporal's enums, and reading a history.

// CommonJS under Node's ESM loader: the package's default export, not a named one.
export const proto = protoPackage.temporal;

export interface OperatorDeps {
  db: Db;
  temporal: Client;
  codec: EncryptionCodec;
  /** The portal's task queue: visibility queries list this deployment's cases only (a namespace may hold others). */
  taskQueue: string;
  /** DATA_ENCRYPTION_KEY: the operator's list cursors are sealed with a key derived from it. */
  dataKey: string;
}

/** A protobuf timestamp as ISO 8601 (null when unset). */
export const isoOf = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t?.seconds != null ? new Date(Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString() : null;

/** Temporal's not-found, as the client raises it or as a gRPC status (5). */
export const isNotFound = (error: unknown) => error instanceof WorkflowNotFoundError || (error as { code?: number })?.code === 5;

/** A workflow's history, or 404. */
export async function fetchHistory(temporal: Client, workflowId: string) {
  try {
    return await temporal.workflow.getHandle(workflowId).fetchHistory();
  } catch (error) {
    if (isNotFound(error)) throw notFound();
    throw error;
  }
}
