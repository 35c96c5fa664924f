import { randomUUID } from 'node:crypto';
import { IncomeInput, PaperApplicationInput, UploadFields, type PaperApplicationEntered } from '../../domain';
import type { BlobStore } from '../../infra/blobs';
import { dataCipher, dataKeys } from '../../infra/data-keys';
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
  const head = form.members[0]!;
  const opportunity = await db.selectFrom('opportunities').select(['organization_id', 'name']).where('id', '=', opportunityId).executeTakeFirstOrThrow();
  const code = newClaimCode();
  // A household without a login: its head is a user that cannot sign in until the household claims it.
  const placeholder = randomUUID();
  const user = await db
    .insertInto('users')
    .values({ username: `paper-${placeholder}`, email: `paper-${placeholder}@no-login.invalid`, first_name: head.fullName, last_name: '', role: 'User', password_hash: '!', status: 'no_login', preferred_language: form.language })
    .returning('id')
    .executeTakeFirstOrThrow();
  const household = await db
    .insertInto('households')
    .values({
      head_user_id: user.id,
      organization_id: opportunity.organization_id,
      household_size: form.members.length,
      profile_completion: 0,
      login: 'none',
      language: form.language,
      mailing_address_sealed: dataCipher().encrypt(JSON.stringify(mailingLines(form.address).filter(Boolean))),
      claim_code_hash: claimCodeHash(code),
      claim_code_expires_at: claimCodeExpiry(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    const members = [];
    for (const m of form.members) members.push(await createMember(db, dataKeys(), household.id, m));
    for (const income of form.incomes) await saveIncome(db, household.id, IncomeInput.parse({ ...income.entry, memberId: members[income.memberIndex]!.id }));
    await upsertProfile(db, household.id, { address: JSON.stringify(form.address) });
    const [scan] = await uploadDocuments(deps, household.id, session.userId, UploadFields.parse({ documentType: 'other', memberId: members[0]!.id }), files);
    const groups = await lotteryGroupsOf(db, household.id, opportunityId, new Date().toISOString().slice(0, 10));
    await actOnLottery(deps, session, opportunityId, 'EnterPaperApplication', {
      householdId: household.id,
      postmarkDate: form.postmarkDate,
      householdSize: form.members.length,
      householdIncome: form.householdIncome,
      formDocumentId: scan!.id,
      groups,
    });
  } catch (error) {
    // Refused (or failed) before the lottery took it: the household record goes with it.
    await db.deleteFrom('households').where('id', '=', household.id).execute().catch(() => undefined);
    await db.deleteFrom('users').where('id', '=', user.id).execute().catch(() => undefined);
    throw error;
  }
  const applicationId = leaseUpApplicationId(opportunityId, household.id);
  const application = await db.selectFrom('applications').select('log_number').where('id', '=', applicationId).executeTakeFirstOrThrow();
  const logNumber = application.log_number ?? applicationId;
  const letter = await queueMailedLetter(db, deps.blobs, {
    organizationId: opportunity.organization_id,
    householdId: household.id,
    applicationId,
    letter: 'paper-received',
    language: form.language,
    address: mailingLines(form.address).filter((l): l is string => Boolean(l)),
    opportunityName: opportunity.name,
    logNumber,
    claimCode: formatClaimCode(code),
    dedupeKey: `paper-received:${applicationId}`,
  });
  return { applicationId, householdId: household.id, logNumber, letterId: letter.id };
}
