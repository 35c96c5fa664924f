import { log, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../activities';
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

type Activities = ReturnType<typeof createActivities>;

/** Read-model writes and outbox inserts: short and idempotent, so retried until they succeed. */
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const accessGrantCase: CaseDefinition<AccessGrantCaseState, AccessGrantInputs, AccessGrantRole, AccessGrantCaseView, never> = {
  table: ACCESS_GRANT_TABLE,
  messages: accessGrantMessages,
  finished: accessGrantFinished,
  isFinal: isFinalAccessGrant,
  view: accessGrantView,
  fire: fireAccessGrantTimer,
  search: (_s, v) => ({ kind: 'access-grant', organizationId: v.organizationId, status: v.status, step: v.status, overdue: false }),
  project: (view) => acts.projectAccessGrant(view),
  notify: (notice) => acts.sendNotice(notice),
  effects: {},
};

/**
 * One granted delegated access (issue 14): a notice to the household before the end, expiry at the
 * end by a durable timer, extension by the household, revocation by the household, the
 * organisation's ambassador or an admin. Born on the case kit, so it has no version-1 branch.
 */
export async function accessGrant(input: StartAccessGrantInput): Promise<string> {
  const s = await runCase(accessGrantCase, initialAccessGrantState(input, new Date(Date.now()).toISOString()));
  log.info('access grant ended', { workflowId: workflowInfo().workflowId, status: s.status });
  return s.status;
}
