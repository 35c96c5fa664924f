import { sql } from 'kysely';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { RecertSigner, RecertView } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import { recertificationWorkflowId } from '../workflows/ids';
import { projectCaseTasks } from './manager-tasks';
import { enqueueNotification } from './notifications';

/**
 * Writes a recertification's view into its read model and its open manager tasks into the shared
 * inbox. Idempotent and version-guarded: an older projection never overwrites a newer one.
 */
export async function projectRecertification(db: Db, view: RecertView): Promise<{ written: boolean }> {
  const row = {
    id: view.caseId,
    workflow_id: recertificationWorkflowId(view.caseId),
    household_id: view.householdId,
    organization_id: view.organizationId,
    tenant_user_id: view.tenantUserId,
    kind: view.kind,
    deadline: view.deadline,
    stage: view.stage,
    status: view.status,
    profile_locked: view.profileLocked,
    tenant_signed: view.signers.length > 0 && view.signers.every((s) => s.signedAt !== null),
    pending_tasks: JSON.stringify(view.pendingTasks),
    started_at: view.startedAt,
    state_updated_at: view.updatedAt,
    state_version: view.version,
    view: JSON.stringify(view),
  };
  const result = await db
    .insertInto('recertification_cases')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet((eb) => ({
          stage: eb.ref('excluded.stage'),
          status: eb.ref('excluded.status'),
          profile_locked: eb.ref('excluded.profile_locked'),
          tenant_signed: eb.ref('excluded.tenant_signed'),
          pending_tasks: eb.ref('excluded.pending_tasks'),
          state_updated_at: eb.ref('excluded.state_updated_at'),
          state_version: eb.ref('excluded.state_version'),
          view: eb.ref('excluded.view'),
          projected_at: sql<Date>`now()`,
        }))
        .where('recertification_cases.state_version', '<', (eb) => eb.ref('excluded.state_version')),
    )
    .executeTakeFirst();
  const tenancy = await db.selectFrom('tenancies').select(['building_name', 'unit_number']).where('household_id', '=', view.householdId).executeTakeFirst();
  await projectCaseTasks(db, {
    caseKind: 'recertification',
    caseId: view.caseId,
    organizationId: view.organizationId,
    householdId: view.householdId,
    step: view.stage,
    contextId: null,
    contextName: tenancy ? `${tenancy.building_name} ${tenancy.unit_number}` : null,
    version: view.version,
    tasks: view.pendingTasks
      .filter((t) => t.role === 'manager')
      .map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: view.status === 'expired' })),
  });
  return { written: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

export interface NoticeInput {
  caseId: string;
  tenantUserId: string;
  template: 'recertification-notice' | 'recertification-expired';
  daysBefore: number;
  deadline: string;
}

/** Queues a notice in the tenant's language; the dedupe key makes each notice of a case go out once. */
export async function sendRecertificationNotice(db: Db, n: NoticeInput): Promise<{ queued: boolean }> {
  const user = await db.selectFrom('users').select(['email', 'preferred_language']).where('id', '=', n.tenantUserId).executeTakeFirstOrThrow();
  const queued = await enqueueNotification(db, {
    userId: n.tenantUserId,
    channel: 'email',
    toAddress: user.email,
    template: n.template,
    language: user.preferred_language,
    params: { daysBefore: n.daysBefore, deadline: n.deadline },
    dedupeKey: n.template === 'recertification-expired' ? `recert:${n.caseId}:expired` : `recert:${n.caseId}:notice-${n.daysBefore}`,
  });
  return { queued };
}

/**
 * The Tenant Income Certification PDF of a cycle. The same key for the same case, so a retried
 * activity overwrites its own file; names come from the database, never from the workflow history.
 */
export async function generateRecertificationTic(
  db: Db,
  blobs: BlobStore,
  input: { caseId: string; householdId: string; signers: RecertSigner[]; deadline: string },
): Promise<{ key: string }> {
  const tenancy = await db.selectFrom('tenancies').selectAll().where('household_id', '=', input.householdId).executeTakeFirst();
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([612, 792]);
  let y = 740;
  const line = (text: string, f = font, size = 11) => {
    page.drawText(text.replace(/[^\x20-\x7e]/g, '?'), { x: 56, y, size, font: f });
    y -= size + 10;
  };
  line('Tenant Income Certification (TIC)', bold, 16);
  line(`Recertification due: ${input.deadline}`);
  if (tenancy) line(`Unit ${tenancy.unit_number}, ${tenancy.address} (${tenancy.bedrooms})`);
  line('We certify that the household information in the portal is true and complete.');
  y -= 10;
  line('Signatures (head of household and each adult member):', bold);
  for (const signer of input.signers) line(`${signer.name}${signer.isHead ? ' (head of household)' : ''}: ______________________`);
  const key = `recertification/${input.caseId}/tic.pdf`;
  await blobs.put(key, Buffer.from(await pdf.save()), 'application/pdf');
  return { key };
}
