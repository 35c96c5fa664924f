import type { AssetFlagInput, AssetInput, AssetKind, AssetView } from '../../domain';
import { openJson, sealJson } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { HttpError, notFound } from '../errors';
import { getProfileRow, upsertProfile } from './household-profile';

/** Saves one asset of any kind (create, SaveBankAccounts, SaveRetirementAccounts, SaveAssetsMultiple). */
export async function saveAssets(db: Db, householdId: string, inputs: AssetInput[]): Promise<AssetView[]> {
  return db.transaction().execute(async (trx) => {
    const memberIds = [...new Set(inputs.map((a) => a.memberId).filter((v): v is string => Boolean(v)))];
    if (memberIds.length > 0) {
      const found = await trx.selectFrom('household_members').select('id').where('household_id', '=', householdId).where('id', 'in', memberIds).execute();
      if (found.length !== memberIds.length) throw notFound();
    }
    const saved: AssetView[] = [];
    for (const input of inputs) {
      const { id, ...details } = input;
      // Balances, institutions, last 4 digits and asset income are personal: sealed like incomes. The
      // kind and the member stay plain (the completion check and the documents' links read them).
      const values = { member_id: input.memberId, kind: input.kind, details: sealJson(details), updated_at: new Date() };
      const row = id
        ? await trx.updateTable('household_assets').set(values).where('id', '=', id).where('household_id', '=', householdId).where('kind', '=', input.kind).returning('id').executeTakeFirst()
        : await trx.insertInto('household_assets').values({ household_id: householdId, ...values }).returning('id').executeTakeFirstOrThrow();
      if (!row) throw notFound();
      saved.push({ ...input, id: row.id } as AssetView);
    }
    const profile = await getProfileRow(trx, householdId);
    const flags = { ...(profile?.asset_flags ?? {}) };
    for (const a of inputs) flags[a.kind] = true;
    await upsertProfile(trx, householdId, { has_assets: true, asset_flags: JSON.stringify(flags) });
    return saved;
  });
}

export async function deleteAsset(db: Db, householdId: string, kind: AssetKind, id: string): Promise<void> {
  const row = await db.deleteFrom('household_assets').where('id', '=', id).where('household_id', '=', householdId).where('kind', '=', kind).returning('id').executeTakeFirst();
  if (!row) throw notFound();
}

export async function listAssets(db: Db, householdId: string): Promise<AssetView[]> {
  const rows = await db.selectFrom('household_assets').select(['id', 'details']).where('household_id', '=', householdId).orderBy('created_at').execute();
  return rows.map((r) => ({ ...openJson<AssetInput>(r.details), id: r.id }) as AssetView);
}

/**
 * The asset questions (spec section 4): the household-wide "any assets?" and one per kind
 * (UpdateAssetFlag, UpdateTrustAssetFlag, ...). NO deletes that scope's entries, only once confirmed.
 */
export async function answerAssetFlag(db: Db, householdId: string, { kind, hasAny, confirmed }: AssetFlagInput) {
  if (!hasAny && !confirmed) throw new HttpError(409, 'confirmationRequired');
  return db.transaction().execute(async (trx) => {
    // The flags are one JSON value read and written back: two answers at once (trust, then life
    // insurance, a moment apart) must not each write over the other's.
    await trx.selectFrom('households').select('id').where('id', '=', householdId).forUpdate().execute();
    let deleted = 0;
    if (!hasAny) {
      let q = trx.deleteFrom('household_assets').where('household_id', '=', householdId);
      if (kind) q = q.where('kind', '=', kind);
      deleted = (await q.returning('id').execute()).length;
    }
    const profile = await getProfileRow(trx, householdId);
    const flags: Record<string, boolean> = { ...(profile?.asset_flags ?? {}) };
    if (kind) flags[kind] = hasAny;
    else for (const k of Object.keys(flags)) flags[k] = hasAny && flags[k]!;
    // A per-kind YES implies the household has assets; a per-kind NO leaves the household answer as it was.
    const hasAssets = kind ? (hasAny ? true : (profile?.has_assets ?? null)) : hasAny;
    await upsertProfile(trx, householdId, { asset_flags: JSON.stringify(flags), has_assets: hasAssets });
    return { kind: kind ?? null, hasAny, deleted };
  });
}
