import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MESSAGES, isMessageCode, statusOfRefusal, type CaseActor, type ErrorData, type MessageCode } from '../../domain';

/**
 * How anything outside a case workflow talks to it: one Update per action, named after the action
 * (the action tables in domain/*.table.ts name them, workflows/case/messages.ts defines them), and
 * the `getView` Query. The API's case service and the bulk-action activity both send through here,
 * so a refusal reads the same wherever it is sent from: the workflow fails the Update with an
 * ApplicationFailure whose type is the spec's message code (workflows/case/refuse.ts), and that
 * code's HTTP status is domain/case.ts `statusOfRefusal`, the same for every case kind.
 */

/** The Query every case workflow answers with its current view. */
const VIEW_QUERY = 'getView';

/** A case's refusal of an action as the spec answers it: the message code, its HTTP status, the text. */
export interface CaseRefusal {
  code: ErrorData['code'];
  status: number;
  message: string;
}

export function caseRefusal(code: MessageCode | 'validation', message?: string): CaseRefusal {
  return { code, status: statusOfRefusal(code), message: message ?? (code === 'validation' ? 'Invalid input' : MESSAGES[code]) };
}

/**
 * What became of an Update: the case answered its new view, refused the action, or has no running
 * workflow (it ended, or never started): only the caller knows from its read model which it was.
 */
export type CaseUpdateOutcome<V> = { kind: 'answered'; view: V } | { kind: 'refused'; refusal: CaseRefusal } | { kind: 'closed' };

export interface CaseUpdateOptions {
  /** Temporal answers a second Update with the same ID with the first one's outcome (a retried activity). */
  updateId?: string;
  /** Stops waiting when this rejects (an activity's cancellation); the Update itself is not withdrawn. */
  cancelled?: Promise<never>;
}

/**
 * Sends one action to a case workflow as the Update of its name, typed by the kind's action inputs
 * (domain's `*Inputs`), and reads the answer. Anything but a refusal or a missing workflow (Temporal
 * unavailable, a cancellation) is thrown as it came.
 */
export async function sendCaseUpdate<Inputs extends Record<string, object>, R extends string, V, A extends keyof Inputs & string = keyof Inputs & string>(
  temporal: Client,
  workflowId: string,
  action: A,
  input: Inputs[A] & { actor: CaseActor<R> },
  options: CaseUpdateOptions = {},
): Promise<CaseUpdateOutcome<V>> {
  try {
    const update = temporal.workflow.getHandle(workflowId).executeUpdate<V, [typeof input]>(action, { args: [input], ...(options.updateId ? { updateId: options.updateId } : {}) });
    const view = await (options.cancelled ? Promise.race([update, options.cancelled]) : update);
    return { kind: 'answered', view };
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) return { kind: 'refused', refusal: refusalOf(error.cause) };
    if (error instanceof WorkflowNotFoundError || isCompleted(error)) return { kind: 'closed' };
    throw error;
  }
}

/**
 * The case's view: the workflow's Query while it runs, the last projected view once its history is
 * gone (retention). With neither, the workflow's not-found error is thrown (the API answers 404).
 */
export async function queryCaseView<V>(temporal: Client, workflowId: string, projected: V | null): Promise<V> {
  return askCaseView<V>(temporal, workflowId)(projected);
}

/**
 * Sends the case's Query now and answers as `queryCaseView` once given the projected view: a reader
 * that must first check who is asking sends both at once, and waits for the slower, not their sum.
 * Nothing of the answer is read before the caller says so, and an answer never read is no error.
 */
export function askCaseView<V>(temporal: Client, workflowId: string): (projected: V | null) => Promise<V> {
  const asked = temporal.workflow.getHandle(workflowId).query<V, []>(VIEW_QUERY);
  asked.catch(() => undefined);
  return (projected) =>
    asked.catch((error: unknown) => {
      if (error instanceof WorkflowNotFoundError && projected) return projected;
      throw error;
    });
}

/** The refusal an Update failed with; a type that is no message code (a fault in a handler) reads 'unknown'. */
function refusalOf(failure: ApplicationFailure): CaseRefusal {
  const type = failure.type ?? 'unknown';
  const code = isMessageCode(type) || type === 'validation' ? type : 'unknown';
  return { code, status: statusOfRefusal(type), message: failure.message };
}

/** Temporal's answer to an Update sent to a workflow that has already completed. */
function isCompleted(error: unknown): boolean {
  return error instanceof Error && /already completed/i.test(error.message);
}
