/**
 * An action's input as tests send it: the actor and whatever fields the test sets, valid or not
 * (the workflow's validator is what is under test, so the type does not hold the input back).
 */
export type AnyActionInput<R extends string = string> = { actor: { userId: string; role: R; impersonatedBy: string | null } } & Record<string, unknown>;
