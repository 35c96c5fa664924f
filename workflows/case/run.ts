import { Mutex } from 'async-mutex';
import { allHandlersFinished, condition, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';
import { actionsOf, refusalOf, type ActionRow, type ActionTable, type CaseActor, type CaseNotice, type CaseTimer, type ChangeContext } from '../../domain/case';
import type { CaseSearchFacts } from '../../domain/case-search';
import type { MessageCode } from '../../domain/messages';
import type { CaseMessages } from './messages';
import { refuse } from './refuse';
import { caseSearchKeeper } from './search';

/** What the kit keeps in every case's state, beside the kind's own facts. */
export interface CaseBookkeeping {
  /** Grows by one with every change; projections never write an older version over a newer one. */
  version: number;
  updatedAt: string;
  history: { at: string; action: string; by: string; note?: string }[];
  /** Durable timers asked for and not fired yet (re-armed after continue-as-new). */
  timers: CaseTimer[];
}

/** A case kind as the kit runs it: its table, messages, view, timers, side effects and projection. */
export interface CaseDefinition<S extends CaseBookkeeping, Inputs extends Record<string, object>, R extends string, V, E extends string> {
  table: ActionTable<S, Inputs, R, E>;
  messages: CaseMessages<Inputs, R, V>;
  /** Null while actions may be taken, else the refusal every action gets (the case is over). */
  finished(s: S, action?: string): MessageCode | null;
  /** The case's work is done once this state is projected. */
  isFinal(s: S): boolean;
  view(s: S, now: number): V;
  /** A durable timer fired: changes the state if what it guarded still stands (false: nothing changed; a string: the history note). */
  fire(s: S, timer: CaseTimer, ctx: ChangeContext): boolean | string;
  /** The side effects named in the table, run with this kind's activities (they may record results in the state). */
  effects: { [K in E]: (s: S, input: never, ctx: ChangeContext) => Promise<void> };
  /** Writes the view into the read model: an idempotent, version-guarded activity. */
  project(view: V): Promise<unknown>;
  /** Sends one notice through the outbox: an activity, idempotent by the notice's dedupe key. */
  notify(notice: CaseNotice): Promise<unknown>;
  /** The note kept in the history for an action (default: its reason). */
  note?(input: never): string | undefined;
  /**
   * Work the case does by itself between messages (a draw, the next batch of invitations), or
   * null when there is none: each piece runs under the lock as one change, so actions interleave.
   */
  work?(s: S): ((ctx: ChangeContext) => Promise<void>) | null;
  /** What the case shows in its search attributes (never personal data), kept current after every change. */
  search?(s: S, view: V): CaseSearchFacts;
}

export interface RunOptions<S> {
  /**
   * Its starter already projected the first state and gave the run that state's search attributes
   * (the API does both for a first-come application): the run projects and upserts only what changes
   * after it. Absent: the run projects its first version and sets its attributes then.
   */
  projectedAtStart?: boolean;
  /** Work done once when the case starts, under the lock (e.g. issuing a log number, setting timers). */
  start?: (s: S, ctx: ChangeContext) => Promise<void> | void;
  /** Called with the state when Temporal suggests a new run (long-lived cases); must continue as new. */
  continueAsNew?: (s: S) => Promise<never>;
  /** A new run is due before Temporal suggests one (a kind that knows its history grows fast, e.g. a bulk batch). */
  continueAsNewDue?: (s: S) => boolean;
}

type Input = { actor: CaseActor; reason?: string };
type AnyDefinition<S extends CaseBookkeeping> = CaseDefinition<S, Record<string, object>, string, unknown, string>;
/** Runs a change and what it asks for (an effect, timers, notices); the version moves only when something changed. */
type Commit = (mutate: (ctx: ChangeContext) => boolean, effect?: (ctx: ChangeContext) => Promise<void>) => Promise<void>;

/**
 * Runs one case to its end on the shared mechanism:
 * - every action is the Update of its name; the validator refuses with the spec's message what the
 *   table does not allow now, and changes nothing;
 * - handlers run one at a time (a mutex, the SDK's pattern for handlers that await): each re-checks
 *   the table under the lock, changes the state, runs its side effect, arms its timers and awaits
 *   its notices before answering with the new view;
 * - timers fire under the same lock and change the state only if what they guarded still stands;
 * - every new version is projected to PostgreSQL once no handler is midway; the final view is always
 *   written, and the workflow returns only when every handler has finished.
 */
export async function runCase<S extends CaseBookkeeping, Inputs extends Record<string, object>, R extends string, V, E extends string>(
  definition: CaseDefinition<S, Inputs, R, V, E>,
  s: S,
  options: RunOptions<S> = {},
): Promise<S> {
  // The kit reads rows and effects by action name; each row's own input type is the table's business.
  const def = definition as unknown as AnyDefinition<S>;
  const lock = new Mutex();
  const commit = committer(def, s, lock);
  handleActions(def, s, lock, commit);
  setHandler(def.messages.getView, () => def.view(s, Date.now()));
  const { start } = options;
  if (start) await lock.runExclusive(() => commit(() => true, (ctx) => Promise.resolve(start(s, ctx))));
  return projectUntilDone(def, s, lock, commit, options);
}

/** The change runner of one case, which also arms the timers a change asks for (and those carried in its state). */
function committer<S extends CaseBookkeeping>(def: AnyDefinition<S>, s: S, lock: Mutex): Commit {
  const nowIso = () => new Date(Date.now()).toISOString();
  const touch = (now: string) => {
    s.updatedAt = now;
    s.version += 1;
  };
  const commit: Commit = async (mutate, effect) => {
    const timers: CaseTimer[] = [];
    const notices: CaseNotice[] = [];
    const ctx: ChangeContext = { now: nowIso(), timer: (event, at, token) => timers.push({ event, at, token }), notify: (n) => notices.push(n) };
    if (!mutate(ctx)) return;
    touch(ctx.now);
    if (effect) {
      await effect(ctx);
      touch(nowIso());
    }
    for (const timer of timers) {
      s.timers.push(timer);
      arm(timer);
    }
    await Promise.all(notices.map((n) => def.notify(n)));
  };
  const arm = (timer: CaseTimer) => {
    void sleep(Math.max(0, Date.parse(timer.at) - Date.now())).then(() =>
      lock.runExclusive(() =>
        commit((ctx) => {
          s.timers = s.timers.filter((t) => !(t.event === timer.event && t.token === timer.token));
          const fired = def.isFinal(s) ? false : def.fire(s, timer, ctx);
          if (fired === false) return false;
          s.history.push({ at: ctx.now, action: timer.event, by: 'system', ...(typeof fired === 'string' ? { note: fired } : {}) });
          return true;
        }),
      ),
    );
  };
  for (const timer of s.timers) arm(timer);
  return commit;
}

/** One handler per action of the table: an Update (with its validator), or a Signal for actions other workflows send. */
function handleActions<S extends CaseBookkeeping>(def: AnyDefinition<S>, s: S, lock: Mutex, commit: Commit): void {
  const table = def.table as Record<string, ActionRow<S, Input, string, string>>;
  const note = (def.note ?? ((input: Input) => input.reason)) as (input: Input) => string | undefined;
  const refusal = (action: string, input: Input) => refusalOf(table, action, s, input, Date.now(), def.finished);

  for (const action of actionsOf(table)) {
    const row = table[action]!;
    const effect = row.effect ? (def.effects[row.effect] as (s: S, input: Input, ctx: ChangeContext) => Promise<void>) : undefined;
    const apply = (input: Input) =>
      commit(
        (ctx) => {
          row.change(s, input, ctx);
          const text = note(input);
          s.history.push({ at: ctx.now, action, by: input.actor.role, ...(text ? { note: text } : {}) });
          return true;
        },
        effect ? (ctx) => effect(s, input, ctx) : undefined,
      );
    const signal = (def.messages.signals as Record<string, SignalDefinition<[Input]> | undefined>)[action];
    if (signal) {
      // Sent by another workflow, which gets no answer: what the table refuses is dropped (a repeat, a late event).
      setHandler(signal, (input: Input) =>
        lock.runExclusive(async () => {
          if (!input?.actor || !row.input.safeParse(input).success || refusal(action, input)) return;
          await apply(input);
        }),
      );
      continue;
    }
    setHandler(
      def.messages.updates[action] as UpdateDefinition<unknown, [Input]>,
      (input: Input) =>
        lock.runExclusive(async () => {
          // The state may have moved while this update waited for the lock: the table decides again.
          const code = refusal(action, input);
          if (code) throw refuse(code);
          await apply(input);
          return def.view(s, Date.now());
        }),
      { validator: (input: Input) => validate(table, action, s, input, def.finished) },
    );
  }
}

/** The Update validator: refuses, changing nothing, what the table does not allow now. */
function validate<S>(table: Record<string, ActionRow<S, Input, string, string>>, action: string, s: S, input: Input, finished: (s: S, action: string) => MessageCode | null): void {
  const actor = input?.actor;
  if (!actor || typeof actor.userId !== 'string' || typeof actor.role !== 'string' || (actor.impersonatedBy !== null && typeof actor.impersonatedBy !== 'string')) {
    throw refuse('validation', 'Invalid actor');
  }
  // "Is it this person's move?" first, then "is this input right?" (shape, then the table's checks).
  const parsed = table[action]!.input.safeParse(input);
  const stateRefusal = refusalOf(table, action, s, input, Date.now(), finished, { skipCheck: true });
  if (stateRefusal) throw refuse(stateRefusal);
  if (!parsed.success) throw refuse('validation', parsed.error.issues[0]?.message);
  const code = refusalOf(table, action, s, input, Date.now(), finished);
  if (code) throw refuse(code);
}

/**
 * Projects every new version once no handler is midway (keeping the search attributes current) and
 * runs the case's own work between messages; returns once the final view is written and every
 * handler has finished, or continues as new when due.
 */
async function projectUntilDone<S extends CaseBookkeeping>(def: AnyDefinition<S>, s: S, lock: Mutex, commit: Commit, options: RunOptions<S>): Promise<S> {
  const keepSearch = searchKeeper(def, s, options.projectedAtStart);
  let projected = options.projectedAtStart ? s.version : 0;
  const work = def.work;
  for (;;) {
    await condition(() => !lock.isLocked() && (s.version > projected || (work?.(s) ?? null) !== null));
    if (s.version === projected && work) {
      await lock.runExclusive(async () => {
        const step = work(s);
        if (step) await commit(() => true, step);
      });
      continue;
    }
    const version = s.version;
    const view = def.view(s, Date.now());
    keepSearch(view);
    await def.project(view);
    projected = version;
    if (def.isFinal(s) && projected === s.version) break;
    if (options.continueAsNew && (workflowInfo().continueAsNewSuggested || options.continueAsNewDue?.(s))) {
      await condition(() => !lock.isLocked() && allHandlersFinished() && s.version === projected);
      return options.continueAsNew(s);
    }
  }
  await condition(allHandlersFinished);
  return s;
}

/** Keeps the case's search attributes current after each change (nothing for a kind that shows none). */
function searchKeeper<S extends CaseBookkeeping>(def: AnyDefinition<S>, s: S, setAtStart?: boolean): (view: unknown) => void {
  const search = def.search;
  if (!search) return () => undefined;
  const keeper = caseSearchKeeper(setAtStart ? { facts: search(s, def.view(s, Date.now())), changedAt: s.updatedAt } : undefined);
  return (view) => keeper(search(s, view), s.updatedAt);
}
