import type { AccessGrantCaseView } from '../../../domain';
import type { Db } from '../database';

/**
 * Writes a grant's view into its `access_grants` row (what every impersonated request checks).
 * Version-guarded and idempotent: a retried or late older projection never overwrites a newer state.
 * The API writes the same view at once after an Update, so an ended access stops the next request.
 */
export async function projectAccessGrant(db: Db, view: AccessGrantCaseView): Promise<{ written: boolean }> {
  const result = await db
    .updateTable('access_grants')
    .set({
      status: view.status,
      expires_at: new Date(view.expiresAt),
      ended_at: view.endedAt ? new Date(view.endedAt) : null,
      ended_by: view.endedBy,
      version: view.version,
    })
    .where('id', '=', view.grantId)
    .where('version', '<', view.version)
    .executeTakeFirst();
  return { written: Number(result.numUpdatedRows) > 0 };
}
