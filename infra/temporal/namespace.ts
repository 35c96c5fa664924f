/**
 * The portal's namespace and its custom search attributes, made idempotently: what a new Temporal
 * cluster needs before the first worker starts. `npm run temporal:namespace` runs it against any
 * cluster (production's too, see infra/production/README.md); `npm run start:cluster` on every start.
 */
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { caseSearchAttributeKeys, registerCaseSearchAttributes } from './search-attributes';

/** How long closed histories stay inspectable and replayable (temporal-values.yaml says the same). */
export const NAMESPACE_RETENTION_DAYS = 30;

const grpcCode = (error: unknown) => (error as { code?: number }).code;

/** Registers the namespace when missing, then every case search attribute; returns what it did. */
export async function ensureNamespace(connection: Connection, namespace: string): Promise<{ created: boolean; searchAttributes: string[] }> {
  let created = false;
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch (error) {
    if (grpcCode(error) !== 5) throw error; // 5: NOT_FOUND
    try {
      await connection.workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: msToTs(NAMESPACE_RETENTION_DAYS * 24 * 3600 * 1000),
      });
      created = true;
    } catch (registerError) {
      if (grpcCode(registerError) !== 6) throw registerError; // 6: ALREADY_EXISTS (made by another starter)
    }
  }
  // A namespace just registered reaches every service's cache within seconds; until then the
  // operator service answers NOT_FOUND.
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await registerCaseSearchAttributes(connection, namespace);
      break;
    } catch (error) {
      if (grpcCode(error) !== 5 || Date.now() > deadline) throw error;
      await new Promise((done) => setTimeout(done, 500));
    }
  }
  return { created, searchAttributes: caseSearchAttributeKeys().map((k) => k.name) };
}
