import type { ActorRole, LeaseUpView } from '../domain/lease-up';
import type { LeaseUpInputs } from '../domain/lease-up.inputs';
import { LEASE_UP_ACTIONS } from '../domain/lease-up.table';
import { caseMessages } from './case/messages';

/**
 * Messages of the lease-up workflow, generated from its action table (imported by the API, never
 * the workflow itself): each applicant and manager action of spec section 4 is an Update named
 * after it that answers the new view; `getView` is the Query of the current view.
 */
export const leaseUpMessages = caseMessages<LeaseUpInputs, ActorRole, LeaseUpView>(LEASE_UP_ACTIONS);
export const leaseUpUpdates = leaseUpMessages.updates;
export const getLeaseUpView = leaseUpMessages.getView;
