import {
  incomeBandOf,
  type RecertAction,
  type RecertActionBody,
  type RecertInputs,
  type RecertificationCase,
  type RecertView,
} from '../../domain';
import { DAY } from '../../domain/time';
import { HttpError } from '../errors';
import type { Session } from '../session';
import { RECERT_KIND } from './case-kinds';
import { actOnHouseholdCase, caseDetail, readView, roleOnCase } from './cases';
import { householdIncomeTotal } from '../../infra/db/repositories/household-income-total';
import { getSavedSignature } from './signatures';
import { ensureAnnual, type RecertDeps } from './recertification-cycle';
import { householdOf } from './users';

/** The household's current case: the newest open one, else the newest (read model, then the cycle just opened). */
async function currentCaseId(deps: RecertDeps, householdId: string): Promise<string | null> {
  const opened = await ensureAnnual(deps, householdId);
  const rows = await deps.db
    .selectFrom('recertification_cases')
    .select(['id', 'status'])
    .where('household_id', '=', householdId)
    .orderBy('started_at', 'desc')
    .execute();
  const open = rows.find((r) => r.status !== 'completed');
  return open?.id ?? opened?.caseId ?? rows[0]?.id ?? null;
}

/** Spec section 3 "Recertification case", with the workflow's view for the actions it offers. */
export async function caseOf(deps: RecertDeps, view: RecertView, now = Date.now()): Promise<RecertificationCase> {
  const [tenancy, household, income] = await Promise.all([
    deps.db.selectFrom('tenancies').selectAll().where('household_id', '=', view.householdId).executeTakeFirst(),
    deps.db.selectFrom('households').select('household_size').where('id', '=', view.householdId).executeTakeFirstOrThrow(),
    householdIncomeTotal(deps.db, view.householdId),
  ]);
  const size = Math.min(Math.max(household.household_size, 1), 8);
  const ami = await deps.db.selectFrom('ami_limits').select('ami_100').where('household_size', '=', size).executeTakeFirst();
  return {
    caseId: view.caseId,
    kind: view.kind,
    address: tenancy?.address ?? '',
    bedrooms: tenancy?.bedrooms ?? '',
    householdSize: household.household_size,
    unitNumber: tenancy?.unit_number ?? '',
    period: { from: view.startedAt.slice(0, 10), to: view.deadline },
    status: view.status,
    stage: view.stage,
    daysRemaining: Math.max(0, Math.ceil((Date.parse(`${view.deadline}T00:00:00Z`) - now) / DAY)),
    lastUpdated: view.updatedAt,
    nextStep: nextStep(view),
    incomeBand: income !== null && ami ? incomeBandOf(income, Number(ami.ami_100)) : null,
    view,
  };
}

/** What the tenant does next, as a key of the recertification namespace (`nextStep.<key>`). */
function nextStep(view: RecertView): string {
  if (view.status === 'completed') return 'none';
  if (view.status === 'expired') return 'contactManagingAgent';
  if (view.availableActions.tenant.includes('ConfirmProfile')) return 'confirmOrUpdateProfile';
  if (view.availableActions.tenant.includes('SubmitDocuments')) return 'submitDocuments';
  if (view.availableActions.tenant.includes('SignTIC')) return 'signTic';
  if (view.availableActions.tenant.includes('Resubmit')) return 'resubmit';
  return 'waitForManager';
}

/** `GET /api/TenantRecertificationStatus/status`: the signed-in tenant's current case, or 404. */
/** The resident's current case, or null when there is none (no tenancy, or not yet in the window). */
export async function status(deps: RecertDeps, session: Session): Promise<RecertificationCase | null> {
  const household = await householdOf(deps.db, session.userId);
  if (!household) return null;
  const caseId = await currentCaseId(deps, household.id);
  if (!caseId) return null;
  const row = await deps.db.selectFrom('recertification_cases').select('view').where('id', '=', caseId).executeTakeFirst();
  return caseOf(deps, await readView(deps, RECERT_KIND, caseId, row?.view ?? null));
}

export async function detail(deps: RecertDeps, session: Session, caseId: string): Promise<RecertificationCase> {
  return caseOf(deps, (await caseDetail(deps, RECERT_KIND, session, caseId)).view);
}

/**
 * Sends one action as the workflow Update of its name (one Temporal call); the workflow's table
 * answers refusals with the spec's message. SignTIC first stores the signature image (drawn, else
 * the signer's saved one) so the workflow receives its key, never the image.
 */
export async function act(deps: RecertDeps, session: Session, caseId: string, action: RecertAction, body: RecertActionBody = {}, requestIp = '') {
  const caller = await roleOnCase(deps.db, RECERT_KIND, session, caseId);
  let input: RecertInputs[RecertAction] = body.reasons ? { reasons: body.reasons } : {};
  if (action === 'SignTIC') {
    const signerId = body.signerId ?? session.userId;
    // A drawn signature in the body, else the signer's saved one (profile settings, spec section 2).
    const saved = !body.signatureBase64 && deps.blobs ? await getSavedSignature(deps.db, deps.blobs, signerId) : null;
    const signatureKey = await storeSignature(deps, caseId, signerId, saved ? saved.png.toString('base64') : body.signatureBase64);
    // The client IP is drawn on the TIC with the signature.
    const ipAddress = requestIp.replace(/^::ffff:/, '');
    input = { ...(body.signerId ? { signerId: body.signerId } : {}), ...(signatureKey ? { signatureKey } : {}), ...(ipAddress ? { ipAddress } : {}) };
  }
  return caseOf(deps, (await actOnHouseholdCase(deps, RECERT_KIND, session, caseId, action, input as never, caller)).view);
}

/**
 * Stores the drawn signature (PNG) under the case and returns its key; none sent and none saved:
 * no key, and the workflow refuses ('Empty signature cannot be saved'). A non-PNG image is refused.
 */
async function storeSignature(deps: RecertDeps, caseId: string, signerId: string, base64: string | undefined): Promise<string | undefined> {
  if (!base64) return undefined;
  const png = Buffer.from(base64.replace(/^data:image\/png;base64,/, ''), 'base64');
  const isPng = png.length >= 60 && png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (!isPng) throw new HttpError(422, 'emptySignature');
  if (!deps.blobs) throw new Error('blob store missing');
  const key = `recertification/${caseId}/signatures/${signerId}.png`;
  await deps.blobs.put(key, png, 'image/png');
  return key;
}
