import { log, workflowInfo } from '@temporalio/workflow';
import { writes } from './activity-proxies';
import {
  ACCESS_GRANT_TABLE,
  accessGrantFinished,
  accessGrantView,
  fireAccessGrantTimer,
  initialAccessGrantState,
  isFinalAccessGrant,
  type AccessGrantCaseState,
  type AccessGrantCaseView,
  type AccessGrantInputs,
  type AccessGrantRole,
  type StartAccessGrantInput,
} from '../domain/access-grant.table';
import { accessGrantMessages } from './access-grant.messages';
import { runCase, type CaseDefinition } from './case/run';

const accessGrantCase: CaseDefinition<AccessGrantCaseState, AccessGrantInputs, AccessGrantRole, AccessGrantCaseView, never> = {
  table: ACCESS_GRANT_TABLE,
  messages: accessGrantMessages,
  finished: accessGrantFinished,
  isFinal: isFinalAccessGrant,
  view: accessGrantView,
  fire: fireAccessGrantTimer,
  search: (_s, v) => ({ kind: 'access-grant', organizationId: v.organizationId, status: v.status, step: v.status, overdue: false }),
  project: (view) => writes.projectAccessGrant(view),
  notify: (notice) => writes.sendNotice(notice),
  effects: {},
};

/**
 * One granted delegated access: a notice to the household before the end, expiry at the end by a
 * durable timer, extension by the household, revocation by the household, the organisation's
 * ambassador or an admin.
 */
export async function accessGrant(input: StartAccessGrantInput): Promise<string> {
  const s = await runCase(accessGrantCase, initialAccessGrantState(input, new Date(Date.now()).toISOString()));
  log.info('access grant ended', { workflowId: workflowInfo().workflowId, status: s.status });
  return s.status;
}
