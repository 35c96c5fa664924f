import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { RecertSigner, RecertView } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Db } from '../infra/db/database';
import { recertificationWorkflowId } from '../infra/temporal/ids';
import { sendNotice } from './notices';
import { projectCase } from './projection';

/** Writes a recertification's view into its read model and its open manager tasks into the shared inbox. */
export async function projectRecertification(db: Db, view: RecertView): Promise<{ written: boolean }> {
  const tenancy = await db.selectFrom('tenancies').select(['building_name', 'unit_number']).where('household_id', '=', view.householdId).executeTakeFirst();
  return projectCase(
    db,
    'recertification_cases',
    {
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
    },
    ['stage', 'status', 'profile_locked', 'tenant_signed'],
    {
      caseKind: 'recertification',
      step: view.stage,
      contextId: null,
      contextName: tenancy ? `${tenancy.building_name} ${tenancy.unit_number}` : null,
      tasks: view.pendingTasks.filter((t) => t.role === 'manager').map((t) => ({ action: t.action, dueAt: t.dueAt, overdue: t.overdue ?? view.status === 'expired' })),
    },
  );
}

export interface NoticeInput {
  caseId: string;
  tenantUserId: string;
  template: 'recertification-notice' | 'recertification-expired';
  daysBefore: number;
  deadline: string;
}

/** Version-1 runs' notice (new runs use the shared `sendNotice`); the dedupe key makes each go out once. */
export async function sendRecertificationNotice(db: Db, n: NoticeInput): Promise<{ queued: boolean }> {
  return sendNotice(db, {
    userId: n.tenantUserId,
    template: n.template,
    params: { daysBefore: n.daysBefore, deadline: n.deadline },
    dedupeKey: n.template === 'recertification-expired' ? `recert:${n.caseId}:expired` : `recert:${n.caseId}:notice-${n.daysBefore}`,
  });
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
