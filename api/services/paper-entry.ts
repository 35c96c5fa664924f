import { createHash, randomUUID } from 'node:crypto';
import { IncomeInput, PaperApplicationInput, UploadFields, type PaperApplicationEntered } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import { dataCipher, dataKeys } from '../../infra/data-keys';
import type { Db } from '../../infra/db/database';
import { claimCodeExpiry, claimCodeHash, formatClaimCode, newClaimCode } from '../../infra/paper/claim-code';
import { queueMailedLetter } from '../../infra/paper/mailed-letters';
import { leaseUpApplicationId } from '../../infra/temporal/ids';
import { HttpError, conflict } from '../errors';
import type { Session } from '../session';
import { sniff, uploadDocuments, type IncomingFile } from './documents';
import { saveIncome } from './household-income';
import { createMember } from './household-members';
import { upsertProfile } from './household-profile';
import { actOnLottery, lotteryGroupsOf, lotteryView, type LotteryDeps } from './lottery';

const bad = (message: string) => new HttpError(400, 'validation', message);

/** Every rule of the form checked before anything is written: a refused form leaves no trace. */
function parseForm(raw: unknown): PaperApplicationInput {
  const parsed = PaperApplicationInput.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bad(issue ? `${issue.path.join('.')}: ${issue.message}` : 'Invalid request');
  }
  const form = parsed.data;
  if (form.members[0]!.relationship !== 'self' || form.members.filter((m) => m.relationship === 'self').length !== 1) {
    throw bad('members.0.relationship: the head of household comes first, as the only member with relationship Self');
  }
  for (const [i, income] of form.incomes.entries()) {
    if (income.memberIndex >= form.members.length) throw bad(`incomes.${i}.memberIndex: no such member on the form`);
    const entry = IncomeInput.safeParse({ ...income.entry, memberId: randomUUID() });
    if (!entry.success) throw bad(`incomes.${i}.${entry.error.issues[0]?.path.join('.') ?? ''}: ${entry.error.issues[0]?.message ?? 'Invalid'}`);
  }
  return form;
}

const mailingLines = (a: PaperApplicationInput['address']) =>
  a.mailingSameAsLiving
    ? [a.line1, a.line2, `${a.city}, ${a.state} ${a.zip}`]
    : [a.mailingLine1 ?? '', a.mailingLine2, `${a.mailingCity ?? ''}, ${a.mailingState ?? ''} ${a.mailingZip ?? ''}`];

/** The id a keyed entry gives its user or household: the same for every retry of the request. */
function keyedId(kind: 'user' | 'household', requestKey: string): string {
  const hex = createHash('sha256').update(`paper-entry ${kind}\n${requestKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const isRefusal = (error: unknown) => error instanceof HttpError && error.statusCode < 500;

interface EntryHousehold {
  userId: string;
  householdId: string;
  headMemberId: string;
  /** The claim code of a household made now; null for one a retry found (only its hash is stored). */
  claimCode: string | null;
}

/**
 * The household without a login that the form describes: made with its head user, members, incomes
 * and address in one transaction, so a retry of a keyed entry (same request key) finds it whole
 * instead of making a second one.
 */
async function householdOfEntry(db: Db, form: PaperApplicationInput, organizationId: string, requestKey: string | null): Promise<EntryHousehold> {
  const householdId = requestKey ? keyedId('household', requestKey) : randomUUID();
  const userId = requestKey ? keyedId('user', requestKey) : randomUUID();
  const found = requestKey
    ? await db.selectFrom('household_members').select('id').where('household_id', '=', householdId).where('relationship', '=', 'self').executeTakeFirst()
    : undefined;
  if (found) return { userId, householdId, headMemberId: found.id, claimCode: null };
  const code = newClaimCode();
  const head = form.members[0]!;
  try {
    const headMemberId = await db.transaction().execute(async (trx) => {
      // A household without a login: its head is a user that cannot sign in until the household claims it.
      await trx
        .insertInto('users')
        .values({ id: userId, username: `paper-${userId}`, email: `paper-${userId}@no-login.invalid`, first_name: head.fullName, last_name: '', role: 'User', password_hash: '!', status: 'no_login', preferred_language: form.language })
        .execute();
      await trx
        .insertInto('households')
        .values({
          id: householdId,
          head_user_id: userId,
          organization_id: organizationId,
          household_size: form.members.length,
          profile_completion: 0,
          login: 'none',
          language: form.language,
          mailing_address_sealed: dataCipher().encrypt(JSON.stringify(mailingLines(form.address).filter(Boolean))),
          claim_code_hash: claimCodeHash(code),
          claim_code_expires_at: claimCodeExpiry(),
        })
        .execute();
      const members = [];
      for (const m of form.members) members.push(await createMember(trx, dataKeys(), householdId, m));
      for (const income of form.incomes) await saveIncome(trx, householdId, IncomeInput.parse({ ...income.entry, memberId: members[income.memberIndex]!.id }));
      await upsertProfile(trx, householdId, { address: JSON.stringify(form.address) });
      return members[0]!.id;
    });
    return { userId, householdId, headMemberId, claimCode: code };
  } catch (error) {
    // The same keyed entry running twice at once: the other attempt's household stands.
    if (requestKey && (error as { code?: string }).code === '23505') return householdOfEntry(db, form, organizationId, requestKey);
    throw error;
  }
}

/** A refused entry leaves nothing: its scan's file, then the household (its rows go with it) and its user. */
async function discardEntry(deps: { db: Db; blobs: BlobStore }, householdId: string, userId: string): Promise<void> {
  const { db, blobs } = deps;
  const files = await db.selectFrom('household_documents').select('blob_key').where('household_id', '=', householdId).execute();
  for (const file of files) if (file.blob_key) await blobs.delete(file.blob_key);
  await db.deleteFrom('households').where('id', '=', householdId).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/**
 * EnterPaperApplication (shared/design/workflows.md, opportunity table): a manager of the owning
 * organisation types a mailed form. The household gets a record with no login (members sealed as
 * online, the scanned form as its document); the lottery's Update decides by the postmark and the
 * stage, and writes the application with its log number exactly as an online one. The first letter,
 * in the household's language, carries the code that lets it claim the application online; it is
 * queued for the office to print and mail.
 */
export async function enterPaperApplication(
  deps: LotteryDeps & { blobs: BlobStore },
  session: Session,
  opportunityId: string,
  raw: unknown,
  files: IncomingFile[],
): Promise<PaperApplicationEntered> {
  // Who asks, then whether the lottery takes paper now (the workflow decides again), then the form.
  const view = await lotteryView(deps, session, opportunityId);
  if (!view.availableActions.manager.includes('EnterPaperApplication')) throw conflict('actionNotAllowedNow');
  const form = parseForm(raw);
  if (form.postmarkDate > view.deadline) throw conflict('postmarkAfterDeadline');
  if (files.length !== 1) throw bad('Attach the scanned form (one file)');
  await sniff(files[0]!);

  const { db } = deps;
  const opportunity = await db.selectFrom('opportunities').select(['organization_id', 'name']).where('id', '=', opportunityId).executeTakeFirstOrThrow();
  const requestKey = session.requestKey ?? null;
  const entry = await householdOfEntry(db, form, opportunity.organization_id, requestKey);
  const householdId = entry.householdId;
  try {
    const [scan] = await uploadDocuments(deps, householdId, session.userId, UploadFields.parse({ documentType: 'other', memberId: entry.headMemberId }), files, requestKey);
    const groups = await lotteryGroupsOf(db, householdId, opportunityId, new Date().toISOString().slice(0, 10));
    // With a request key the Update's ID is that key: a retry gets the first attempt's outcome.
    await actOnLottery(deps, session, opportunityId, 'EnterPaperApplication', {
      householdId,
      postmarkDate: form.postmarkDate,
      householdSize: form.members.length,
      householdIncome: form.householdIncome,
      formDocumentId: scan!.id,
      groups,
    });
  } catch (error) {
    // Refused before the lottery took it: the household, its user and the stored scan go. A failure
    // of a keyed entry leaves them for its retry, which may find the lottery took the first attempt.
    if (!requestKey || isRefusal(error)) await discardEntry(deps, householdId, entry.userId).catch(() => undefined);
    throw error;
  }
  const applicationId = leaseUpApplicationId(opportunityId, householdId);
  const application = await db.selectFrom('applications').select('log_number').where('id', '=', applicationId).executeTakeFirstOrThrow();
  const logNumber = application.log_number ?? applicationId;
  const dedupeKey = `paper-received:${applicationId}`;
  const queued = await db.selectFrom('mailed_letters').select('id').where('dedupe_key', '=', dedupeKey).executeTakeFirst();
  if (queued) return { applicationId, householdId, logNumber, letterId: queued.id };
  // The code printed is the one whose hash the household keeps: a retry that finds the case without
  // its letter (only the hash of the first code is stored) writes a fresh code with the letter.
  const code = entry.claimCode ?? newClaimCode();
  const letter = await db.transaction().execute(async (trx) => {
    if (!entry.claimCode) await trx.updateTable('households').set({ claim_code_hash: claimCodeHash(code), claim_code_expires_at: claimCodeExpiry() }).where('id', '=', householdId).execute();
    return queueMailedLetter(trx, deps.blobs, {
      organizationId: opportunity.organization_id,
      householdId,
      applicationId,
      letter: 'paper-received',
      language: form.language,
      address: mailingLines(form.address).filter((l): l is string => Boolean(l)),
      opportunityName: opportunity.name,
      logNumber,
      claimCode: formatClaimCode(code),
      dedupeKey,
    });
  });
  return { applicationId, householdId, logNumber, letterId: letter.id };
}
