import type { IntakeTurnBody, IntakeView } from '../../domain/intake';
import { requiredDocKey } from '../../domain/documents';
import { refreshCompletion, requiredDocuments } from '../../infra/db/repositories/profile-completion';
import type { Session } from '../session';
import { uploadDocuments, type IncomingFile } from './documents';
import { suggestFaq } from './faq';
import { editableHousehold, ensureOwnHousehold } from './household-access';
import { refuse } from './intake-forms';
import { enterSection, loadState, moveTo, storeState, viewOf, type IntakeContext, type IntakeDeps } from './intake-state';
import { answer, confirm, skip } from './intake-steps';

export type { IntakeDeps } from './intake-state';

/**
 * The intake assistant's conversation (domain/intake.ts says what it asks; intake-forms.ts how an
 * answer is read; intake-state.ts how the conversation is kept; intake-steps.ts the resident's
 * moves). An entry is saved only after the resident confirms it, through the same service as its
 * form, and the profile's completion is refreshed as after a form.
 */
export class IntakeConversation {
  private readonly ctx: IntakeContext;

  constructor(deps: IntakeDeps, session: Session) {
    this.ctx = { deps, session };
  }

  /** GET: where the conversation is; a paused one resumes here. */
  async current(): Promise<IntakeView> {
    const household = await ensureOwnHousehold(this.ctx.deps.db, this.ctx.session);
    const { state } = await loadState(this.ctx, household.id);
    return moveTo(this.ctx, household.id, state);
  }

  async turn(body: IntakeTurnBody): Promise<IntakeView> {
    const { db } = this.ctx.deps;
    const h = (await ensureOwnHousehold(db, this.ctx.session)).id;
    const { state } = await loadState(this.ctx, h);
    switch (body.action) {
      case 'pause':
        await storeState(this.ctx, h, state, true);
        return viewOf(db, h, state, true);
      case 'restart':
        return moveTo(this.ctx, h, await enterSection(db, 'member', h, []));
      case 'ask': {
        const faq = await suggestFaq(db, body.question);
        return viewOf(db, h, state, false, { faq: faq.map((q) => ({ id: q.id, question: q.question, answer: q.answer })) });
      }
      case 'skip':
        return skip(this.ctx, h, state);
      case 'answer':
        return answer(this.ctx, h, state, body.answer);
      case 'confirm':
        return confirm(this.ctx, h, state, body.confirm, body.change);
    }
  }

  /** The document asked for, uploaded through My Documents' upload (same checks and limits). */
  async upload(files: IncomingFile[], payDates: string[]): Promise<IntakeView> {
    const { db, blobs } = this.ctx.deps;
    const household = await ensureOwnHousehold(db, this.ctx.session);
    const { state } = await loadState(this.ctx, household.id);
    if (state.step !== 'upload') throw refuse('No document is asked for now');
    const editable = await editableHousehold(db, this.ctx.session);
    const item = (await requiredDocuments(db, editable.id)).find((d) => requiredDocKey(d) === requiredDocKey(state.draft));
    if (!item) throw refuse('No document is asked for now');
    await uploadDocuments(
      { db, blobs },
      editable.id,
      this.ctx.session.userId,
      { documentType: item.documentType, memberId: item.memberId, incomeId: item.incomeId, assetId: null, replacesDocumentId: null, reason: null, payDates },
      files,
    );
    await refreshCompletion(db, editable.id);
    return moveTo(this.ctx, editable.id, await enterSection(db, 'documents', editable.id, state.skipped), { saved: 'document' });
  }
}
