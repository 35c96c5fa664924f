import type { QueryDefinition, UpdateDefinition } from '@temporalio/common';
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { CaseActor } from '../../domain/case';

/**
 * The messages of a case workflow, generated from its action table: one Update per action, named
 * after it, taking that action's input and answering the new view; and one Query for the view.
 * The API imports these definitions (never the workflow code).
 */
export interface CaseMessages<Inputs extends Record<string, object>, R extends string, V> {
  updates: { [A in keyof Inputs & string]: UpdateDefinition<V, [Inputs[A] & { actor: CaseActor<R> }], A> };
  getView: QueryDefinition<V>;
}

export function caseMessages<Inputs extends Record<string, object>, R extends string, V>(actions: readonly (keyof Inputs & string)[]): CaseMessages<Inputs, R, V> {
  return {
    updates: Object.fromEntries(actions.map((action) => [action, defineUpdate(action)])) as CaseMessages<Inputs, R, V>['updates'],
    getView: defineQuery<V>('getView'),
  };
}
