import type { QueryDefinition, SignalDefinition, UpdateDefinition } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CaseActor } from '../../domain/case';

/**
 * The messages of a case workflow, generated from its action table: one Update per action, named
 * after it, taking that action's input and answering the new view; and one Query for the view.
 * The API imports these definitions (never the workflow code).
 */
export interface CaseMessages<Inputs extends Record<string, object>, R extends string, V> {
  updates: { [A in keyof Inputs & string]: UpdateDefinition<V, [Inputs[A] & { actor: CaseActor<R> }], A> };
  getView: QueryDefinition<V>;
  /** Actions other workflows send (a workflow can signal another, not update it): refused ones are ignored. */
  signals: Partial<{ [A in keyof Inputs & string]: SignalDefinition<[Inputs[A] & { actor: CaseActor<R> }], A> }>;
}

export function caseMessages<Inputs extends Record<string, object>, R extends string, V>(
  actions: readonly (keyof Inputs & string)[],
  signalActions: readonly (keyof Inputs & string)[] = [],
): CaseMessages<Inputs, R, V> {
  const updated = actions.filter((action) => !signalActions.includes(action));
  return {
    updates: Object.fromEntries(updated.map((action) => [action, defineUpdate(action)])) as CaseMessages<Inputs, R, V>['updates'],
    getView: defineQuery<V>('getView'),
    signals: Object.fromEntries(signalActions.map((action) => [action, defineSignal(action)])) as CaseMessages<Inputs, R, V>['signals'],
  };
}
