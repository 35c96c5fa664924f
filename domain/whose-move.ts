import type { CaseKind } from './tasks';

/**
 * Whose move it is on a case, read from the case view's pending tasks: every case page
 * (lease-up, recertification, relocation; the person's and the manager's) says in one sentence who
 * the case is waiting for and what for, or what happened once it is over. One function for every
 * page, so the sentence never disagrees with the manager's inbox (the same tasks feed both).
 */

/** Who is reading: the household's person (applicant or tenant) or the organisation's manager. */
export type CaseViewer = 'person' | 'manager';

/** The person's role name in each kind of case (the tasks' `role`). */
const PERSON_ROLE: Record<CaseKind, string> = { lease_up: 'applicant', recertification: 'tenant', relocation: 'tenant' };

/** The facts the sentence is made from: every case view has these (status, tasks by role). */
export interface WhoseMoveInput {
  kind: CaseKind;
  viewer: CaseViewer;
  status: string;
  pendingTasks: readonly { role: string; action: string }[];
}

export type WhoseMove =
  /** Someone has something to do: `who` is relative to the reader. */
  | { whose: 'you' | 'manager' | 'applicant' | 'tenant'; task: string }
  /** The case is over: what happened. */
  | { whose: 'done'; outcome: string }
  /** Nobody owes an action now (a lottery draw, a stay in the temporary unit): why. */
  | { whose: 'nobody'; reason: string };

/** Final and waiting states of each kind, by status: what the sentence says when no task is open. */
const OUTCOMES: Record<CaseKind, Record<string, { whose: 'done' | 'nobody'; key: string }>> = {
  lease_up: {
    ended: { whose: 'done', key: 'leaseSigned' },
    withdrawn: { whose: 'done', key: 'withdrawn' },
    closed: { whose: 'done', key: 'closed' },
    in_lottery: { whose: 'nobody', key: 'lotteryDraw' },
    waitlisted: { whose: 'nobody', key: 'waitlisted' },
    skipped: { whose: 'done', key: 'notInvited' },
  },
  recertification: {
    completed: { whose: 'done', key: 'recertApproved' },
    expired: { whose: 'done', key: 'recertExpired' },
  },
  relocation: {
    returned: { whose: 'done', key: 'returned' },
    relocated: { whose: 'nobody', key: 'relocated' },
  },
};

/**
 * Tasks that say the same thing to the reader (either answer of one question): shown as the first.
 * Deny consent and deny appeal are the other answers of consent and appeal.
 */
const SAME_TASK: Record<string, string> = {
  DenyConsentForScreening: 'ProvideConsentForScreening',
  DenyAppeal: 'GrantAppeal',
  NextInLineAfterOfferDeclined: 'NextInLine',
  NextInLineAfterOfferExpired: 'NextInLine',
  NextInLineAfterWithdrawal: 'NextInLine',
  NextInLineAfterRejection: 'NextInLine',
};

/**
 * The sentence's content. The household's tasks come first: while the person owes something (a
 * profile, an answer, a signature) the case waits for them even if the manager could act too (the
 * manager's 'Mark as complete' needs the profile first). A finished case says how it ended.
 */
export function whoseMove(input: WhoseMoveInput): WhoseMove {
  const outcome = OUTCOMES[input.kind][input.status];
  if (outcome?.whose === 'done') return { whose: 'done', outcome: outcome.key };
  const personRole = PERSON_ROLE[input.kind];
  const personTask = input.pendingTasks.find((t) => t.role === personRole);
  const managerTask = input.pendingTasks.find((t) => t.role === 'manager');
  const task = personTask ?? managerTask;
  if (!task) return { whose: 'nobody', reason: outcome?.key ?? 'inProgress' };
  const action = SAME_TASK[task.action] ?? task.action;
  const ownTask = (task === personTask) === (input.viewer === 'person');
  if (ownTask) return { whose: 'you', task: action };
  return { whose: task === managerTask ? 'manager' : (personRole as 'applicant' | 'tenant'), task: action };
}
