import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { taskActions } from '../../domain/case';
import { LEASE_UP_TABLE } from '../../domain/lease-up.table';
import { RECERT_TABLE } from '../../domain/recertification.table';
import { RELOCATION_TABLE } from '../../domain/relocation.table';
import { whoseMove, type WhoseMoveInput } from '../../domain/whose-move';

/**
 * Every task a case can open has its "whose move" words for both readers: a task without
 * them would fall back to "Nothing to do right now" while someone does have something to do.
 */
const texts = JSON.parse(readFileSync(new URL('../../web/src/i18n/locales/en/caseProgress.json', import.meta.url), 'utf8')) as Record<string, Record<string, Record<string, string>>>;

const tasksOf = {
  lease_up: [...taskActions(LEASE_UP_TABLE), 'FollowUpAdditionalDocuments', 'NextInLineAfterOfferDeclined', 'NextInLineAfterWithdrawal'],
  recertification: taskActions(RECERT_TABLE),
  relocation: taskActions(RELOCATION_TABLE),
} as const;

describe('whose-move texts', () => {
  for (const [kind, actions] of Object.entries(tasksOf) as [WhoseMoveInput['kind'], readonly string[]][]) {
    it(`every ${kind} task reads for the person and the manager`, () => {
      for (const action of actions) {
        for (const viewer of ['person', 'manager'] as const) {
          const move = whoseMove({ kind, viewer, status: 'active', pendingTasks: [{ role: 'manager', action }] });
          if (move.whose === 'done' || move.whose === 'nobody') throw new Error(`${kind} ${action}: no task`);
          expect(texts[kind]?.[move.task]?.[viewer], `${kind}.${move.task}.${viewer}`).toBeTruthy();
        }
      }
    });
  }

  it('every final status and every waiting reason reads for both', () => {
    const finals: [WhoseMoveInput['kind'], string][] = [
      ['lease_up', 'ended'], ['lease_up', 'withdrawn'], ['lease_up', 'closed'], ['lease_up', 'skipped'], ['lease_up', 'in_lottery'], ['lease_up', 'waitlisted'],
      ['recertification', 'completed'], ['recertification', 'expired'], ['relocation', 'returned'], ['relocation', 'relocated'], ['relocation', 'scheduling'],
    ];
    for (const [kind, status] of finals) {
      for (const viewer of ['person', 'manager'] as const) {
        const move = whoseMove({ kind, viewer, status, pendingTasks: [] });
        const key = move.whose === 'done' ? ['done', move.outcome] : move.whose === 'nobody' ? ['nobody', move.reason] : [];
        expect(texts[key[0]!]?.[key[1]!]?.[viewer], `${kind} ${status} ${viewer}`).toBeTruthy();
      }
    }
  });
});
