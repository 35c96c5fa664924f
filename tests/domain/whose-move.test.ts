import { describe, expect, it } from 'vitest';
import { whoseMove } from '../../domain/whose-move';

const task = (role: string, action: string) => ({ role, action });

describe('whose move it is on a case', () => {
  it("the household's task comes first: the manager reads that the case waits for the applicant", () => {
    const pendingTasks = [task('applicant', 'SubmitProfile'), task('manager', 'RequestConsentForScreening')];
    expect(whoseMove({ kind: 'lease_up', viewer: 'person', status: 'in_review', pendingTasks })).toEqual({ whose: 'you', task: 'SubmitProfile' });
    expect(whoseMove({ kind: 'lease_up', viewer: 'manager', status: 'in_review', pendingTasks })).toEqual({ whose: 'applicant', task: 'SubmitProfile' });
  });

  it("once the household has nothing to do, the manager's first task is the move, seen from both sides", () => {
    const pendingTasks = [task('manager', 'MarkAsComplete'), task('manager', 'RequestConsentForScreening')];
    expect(whoseMove({ kind: 'lease_up', viewer: 'person', status: 'in_review', pendingTasks })).toEqual({ whose: 'manager', task: 'MarkAsComplete' });
    expect(whoseMove({ kind: 'lease_up', viewer: 'manager', status: 'in_review', pendingTasks })).toEqual({ whose: 'you', task: 'MarkAsComplete' });
  });

  it('the two answers of one question read as one task', () => {
    const pendingTasks = [task('applicant', 'DenyConsentForScreening'), task('applicant', 'ProvideConsentForScreening')];
    expect(whoseMove({ kind: 'lease_up', viewer: 'person', status: 'in_review', pendingTasks })).toEqual({ whose: 'you', task: 'ProvideConsentForScreening' });
    expect(whoseMove({ kind: 'lease_up', viewer: 'person', status: 'in_review', pendingTasks: [task('manager', 'NextInLineAfterWithdrawal')] })).toEqual({
      whose: 'manager',
      task: 'NextInLine',
    });
  });

  it('recertification and relocation wait for the tenant by name', () => {
    expect(whoseMove({ kind: 'recertification', viewer: 'manager', status: 'active', pendingTasks: [task('tenant', 'SignTIC')] })).toEqual({ whose: 'tenant', task: 'SignTIC' });
    expect(whoseMove({ kind: 'relocation', viewer: 'person', status: 'awaiting_offer', pendingTasks: [task('manager', 'OfferTemporaryUnit')] })).toEqual({
      whose: 'manager',
      task: 'OfferTemporaryUnit',
    });
  });

  it('a finished case says how it ended, even with a task left in the view', () => {
    expect(whoseMove({ kind: 'lease_up', viewer: 'person', status: 'ended', pendingTasks: [] })).toEqual({ whose: 'done', outcome: 'leaseSigned' });
    expect(whoseMove({ kind: 'recertification', viewer: 'manager', status: 'completed', pendingTasks: [task('tenant', 'ConfirmProfile')] })).toEqual({
      whose: 'done',
      outcome: 'recertApproved',
    });
    expect(whoseMove({ kind: 'relocation', viewer: 'manager', status: 'returned', pendingTasks: [] })).toEqual({ whose: 'done', outcome: 'returned' });
  });

  it('nobody owes anything: the lottery draw, a stay in the temporary unit, or in progress', () => {
    expect(whoseMove({ kind: 'lease_up', viewer: 'person', status: 'in_lottery', pendingTasks: [] })).toEqual({ whose: 'nobody', reason: 'lotteryDraw' });
    expect(whoseMove({ kind: 'relocation', viewer: 'person', status: 'relocated', pendingTasks: [] })).toEqual({ whose: 'nobody', reason: 'relocated' });
    expect(whoseMove({ kind: 'lease_up', viewer: 'manager', status: 'in_review', pendingTasks: [] })).toEqual({ whose: 'nobody', reason: 'inProgress' });
  });
});
