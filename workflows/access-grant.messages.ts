import type { AccessGrantCaseView, AccessGrantInputs, AccessGrantRole } from '../domain/access-grant.table';
import { ACCESS_GRANT_ACTIONS } from '../domain/access-grant.table';
import { caseMessages } from './case/messages';

/** Messages of the delegated-access workflow, generated from its action table (imported by the API). */
export const accessGrantMessages = caseMessages<AccessGrantInputs, AccessGrantRole, AccessGrantCaseView>(ACCESS_GRANT_ACTIONS);
export const accessGrantUpdates = accessGrantMessages.updates;
export const getAccessGrantView = accessGrantMessages.getView;
