import type { ManagedOpportunity, OpportunityInput } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import type { Db } from '../../infra/db/database';
import { HttpError, forbidden, notFound } from '../errors';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { listingAlertsWorkflowId } from '../../domain/listing-alerts';
import { openLottery, type LotteryDeps } from './lottery';
import { opportunitySummary } from './opportunities';
import { organizationOf } from './users';

/**
 * Opportunities as their managers see them: created (unpublished) and published by managers of
 * the owning organisation only; units, requirements, income ranges, timer settings, paper application.
 */
async function managerOrg(db: Db, userId: string): Promise<string> {
  const org = await organizationOf(db, userId);
  if (!org) throw forbidden();
  return org;
}

async function owned(db: Db, userId: string, id: string) {
  const org = await managerOrg(db, userId);
  const row = await db.selectFrom('opportunities').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (row.organization_id !== org) throw forbidden();
  return row;
}

function columns(input: OpportunityInput) {
  return {
    name: input.name,
    kind: input.kind,
    building: input.building,
    address: input.address,
    area: input.area,
    mailing_address: input.mailingAddress,
    description: input.description,
    amenities: JSON.stringify(input.amenities),
    requirements: JSON.stringify(input.requirements),
    income_ranges: JSON.stringify(input.incomeRanges),
    lottery_end_date: input.lotteryEndDate,
    selection: input.selection,
    lottery_set_asides: JSON.stringify(input.lottery.setAsides),
    lottery_community_board: input.lottery.communityBoard ?? null,
    ...(input.lottery.mailGraceDays !== undefined ? { mail_grace_days: input.lottery.mailGraceDays } : {}),
    ...(input.settings.offerExpiryDays ? { offer_expiry_days: input.settings.offerExpiryDays } : {}),
    ...(input.settings.appealWindowDays ? { appeal_window_days: input.settings.appealWindowDays } : {}),
    ...(input.settings.appealDecisionBusinessDays ? { appeal_decision_business_days: input.settings.appealDecisionBusinessDays } : {}),
    ...(input.settings.additionalDocumentsDays ? { additional_documents_days: input.settings.additionalDocumentsDays } : {}),
  };
}

export async function createOpportunity(db: Db, userId: string, input: OpportunityInput): Promise<ManagedOpportunity> {
  const org = await managerOrg(db, userId);
  const id = await db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('opportunities')
      .values({ ...columns(input), organization_id: org, created_by: userId, published: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    await replaceUnits(trx, id, input);
    return id;
  });
  return managed(db, userId, id);
}

export async function updateOpportunity(db: Db, userId: string, id: string, input: OpportunityInput): Promise<ManagedOpportunity> {
  const row = await owned(db, userId, id);
  // Once its lottery is open, the deadline moves only through the lottery (ExtendDeadline) and the selection stays.
  const opened = await db.selectFrom('opportunity_lotteries').select('opportunity_id').where('opportunity_id', '=', id).executeTakeFirst();
  const deadline = new Date(row.lottery_end_date).toISOString().slice(0, 10);
  if (opened && (input.selection !== row.selection || input.lotteryEndDate !== deadline)) throw new HttpError(409, 'actionNotAllowedNow');
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('opportunities').set(columns(input)).where('id', '=', id).execute();
    // Units already offered to an application stay; the others are replaced by the edited list.
    await replaceUnits(trx, id, input);
  });
  return managed(db, userId, id);
}

async function replaceUnits(db: Db, opportunityId: string, input: OpportunityInput) {
  const existing = await db.selectFrom('units').select(['id', 'unit_number']).where('opportunity_id', '=', opportunityId).execute();
  const wanted = new Set(input.units.map((u) => u.unitNumber));
  const gone = existing.filter((u) => !wanted.has(u.unit_number)).map((u) => u.id);
  if (gone.length > 0) {
    const held = await db.selectFrom('applications').select('id').where('held_unit_id', 'in', gone).executeTakeFirst();
    if (held) throw new HttpError(409, 'unitUnavailable');
    await db.deleteFrom('units').where('id', 'in', gone).execute();
  }
  for (const u of input.units) {
    const values = {
      opportunity_id: opportunityId,
      unit_number: u.unitNumber,
      bedroom_type: u.bedroomType,
      address: u.address || input.address,
      accessibility: JSON.stringify(u.accessibility),
      monthly_rent: u.monthlyRent,
      ami_percent: u.amiPercent,
    };
    await db
      .insertInto('units')
      .values(values)
      .onConflict((oc) =>
        oc.constraint('units_opportunity_number').doUpdateSet({
          bedroom_type: values.bedroom_type,
          address: values.address,
          accessibility: values.accessibility,
          monthly_rent: values.monthly_rent,
          ami_percent: values.ami_percent,
        }),
      )
      .execute();
  }
}

/**
 * Publishes or withdraws an opportunity. Publishing a lottery opens its lottery (the committed seed
 * and the workflow); a lottery once opened cannot be unpublished, only closed.
 */
export async function setPublished(db: Db, userId: string, id: string, published: boolean, lottery?: LotteryDeps): Promise<ManagedOpportunity> {
  const row = await owned(db, userId, id);
  if (published) {
    const units = await db.selectFrom('units').select('id').where('opportunity_id', '=', id).executeTakeFirst();
    if (!units) throw new HttpError(422, 'unitsRequired');
  }
  const opened = await db.selectFrom('opportunity_lotteries').select('opportunity_id').where('opportunity_id', '=', id).executeTakeFirst();
  if (!published && opened) throw new HttpError(409, 'actionNotAllowedNow');
  if (published && row.selection === 'lottery') {
    if (!lottery) throw new Error('publishing a lottery needs Temporal');
    await openLottery(lottery, id);
  }
  await db
    .updateTable('opportunities')
    .set({ published, published_at: published ? (row.published_at ?? new Date()) : row.published_at })
    .where('id', '=', id)
    .execute();
  if (published && lottery) await startListingAlerts(lottery, id, !row.published);
  return managed(db, userId, id);
}

/**
 * Publishing starts the listing's alert fan-out (workflows/listing-alerts.ts). Publishing again
 * after a withdrawal runs it again (the ledger keeps anyone from hearing twice, and alerts saved
 * since are heard); publishing what is already published starts it only if it never ran (a start
 * that failed before is made up for).
 */
async function startListingAlerts(deps: LotteryDeps, opportunityId: string, newlyPublished: boolean): Promise<void> {
  try {
    await deps.temporal.workflow.start('listingAlerts', {
      workflowId: listingAlertsWorkflowId(opportunityId),
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: newlyPublished ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'USE_EXISTING',
      args: [{ opportunityId }],
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/** The paper application form (a PDF) in blob storage. */
export async function putPaperApplication(db: Db, blobs: BlobStore, userId: string, id: string, pdf: Buffer): Promise<ManagedOpportunity> {
  await owned(db, userId, id);
  const key = `opportunities/${id}/paper-application.pdf`;
  await blobs.put(key, pdf, 'application/pdf');
  await db.updateTable('opportunities').set({ paper_application_key: key }).where('id', '=', id).execute();
  return managed(db, userId, id);
}

/** Public for published opportunities; managers of the owner also before publishing. */
export async function getPaperApplication(db: Db, blobs: BlobStore, id: string, userId: string | null, role: string | null) {
  const row = await db.selectFrom('opportunities').select(['paper_application_key', 'published', 'organization_id']).where('id', '=', id).executeTakeFirst();
  if (!row?.paper_application_key) throw notFound();
  if (!row.published && !(role === 'Manager' && userId && (await organizationOf(db, userId)) === row.organization_id)) throw notFound();
  const object = await blobs.get(row.paper_application_key);
  if (!object) throw notFound();
  return object.body;
}

export async function listManaged(db: Db, userId: string): Promise<ManagedOpportunity[]> {
  const org = await managerOrg(db, userId);
  const rows = await db.selectFrom('opportunities').select('id').where('organization_id', '=', org).orderBy('lottery_end_date').execute();
  return Promise.all(rows.map((r) => managed(db, userId, r.id)));
}

export async function managed(db: Db, userId: string, id: string, now = new Date()): Promise<ManagedOpportunity> {
  const row = await owned(db, userId, id);
  const units = await db.selectFrom('units').selectAll().where('opportunity_id', '=', id).orderBy('unit_number').execute();
  return {
    ...opportunitySummary(row, units.length, now),
    description: row.description,
    amenities: row.amenities,
    requirements: row.requirements,
    incomeRanges: row.income_ranges,
    building: row.building,
    area: (row.area as ManagedOpportunity['area']) ?? null,
    mailingAddress: row.mailing_address,
    selection: row.selection,
    lottery: { setAsides: row.lottery_set_asides, ...(row.lottery_community_board ? { communityBoard: row.lottery_community_board } : {}), mailGraceDays: row.mail_grace_days },
    published: row.published,
    hasPaperApplication: !!row.paper_application_key,
    settings: {
      offerExpiryDays: row.offer_expiry_days,
      appealWindowDays: row.appeal_window_days,
      appealDecisionBusinessDays: row.appeal_decision_business_days,
      additionalDocumentsDays: row.additional_documents_days,
    },
    units: units.map((u) => ({
      id: u.id,
      unitNumber: u.unit_number,
      bedroomType: u.bedroom_type,
      address: u.address,
      accessibility: u.accessibility,
      monthlyRent: Number(u.monthly_rent),
      amiPercent: u.ami_percent,
    })),
  };
}
