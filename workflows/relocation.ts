import { log, workflowInfo } from '@temporalio/workflow';
import type { RelocationInputs, RelocationView, StartRelocationInput } from '../domain/relocation';
import {
  RELOCATION_TABLE,
  fireRelocationTimer,
  initialRelocationState,
  isFinalRelocation,
  relocationFinished,
  relocationView,
  type RelocationState,
} from '../domain/relocation.table';
import { anyOverdue } from '../domain/case-search';
import { runCase, type CaseDefinition } from './case/run';
import { writes } from './activity-proxies';
import { relocationMessages } from './relocation.messages';

const relocationCase: CaseDefinition<RelocationState, RelocationInputs, 'tenant' | 'manager', RelocationView, never> = {
  table: RELOCATION_TABLE,
  messages: relocationMessages,
  finished: relocationFinished,
  isFinal: isFinalRelocation,
  view: relocationView,
  fire: fireRelocationTimer,
  search: (_s, v) => ({ kind: 'relocation', organizationId: v.organizationId, status: v.status, step: v.status, overdue: v.status === 'overdue' || anyOverdue(v.pendingTasks) }),
  project: (view) => writes.projectRelocation(view),
  notify: (notice) => writes.sendNotice(notice),
  effects: {},
};

/**
 * One temporary relocation (spec sections 1 and 9: up to 6 months): profile, temporary unit offers,
 * moving slot, the move, a durable end with reminders 30, 14 and 7 days before it, extension by a
 * manager only, the return home, and escalation when the end passes.
 */
export async function relocation(input: StartRelocationInput): Promise<string> {
  const s = await runCase(relocationCase, initialRelocationState(input, new Date(Date.now()).toISOString()));
  log.info('relocation finished', { workflowId: workflowInfo().workflowId, status: s.status });
  return s.status;
}
