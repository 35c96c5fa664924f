import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { LANGUAGES, RECERT_MANAGER_ACTIONS, RECERT_STAGES, RELOCATION_MANAGER_ACTIONS, RELOCATION_STATUSES } from '../../domain';

/** The manager inbox names every recertification and relocation step and task in each language. */
describe.each(LANGUAGES)('inbox labels in %s', (language) => {
  const tasks = JSON.parse(readFileSync(`web/src/i18n/locales/${language}/managerInbox.json`, 'utf8'));

  it('label every manager action of the recertification and relocation workflows', () => {
    for (const action of [...RECERT_MANAGER_ACTIONS, ...RELOCATION_MANAGER_ACTIONS]) {
      expect(tasks.otherActions[action], action).toEqual(expect.any(String));
    }
  });

  it('label every recertification stage and relocation status', () => {
    for (const step of [...RECERT_STAGES, ...RELOCATION_STATUSES]) {
      expect(tasks.otherSteps[step], step).toEqual(expect.any(String));
    }
  });
});
