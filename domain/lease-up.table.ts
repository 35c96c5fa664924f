import { z } from 'zod';
import { actionsNeedingReason, actionsOf, irreversibleActions, type ActionTable } from './case';
import type { ActorRole, LeaseUpEffect } from './lease-up';
import type { ApplicantAction, LeaseUpInputs, ManagerAction } from './lease-up.inputs';
import { APPLICANT_ROWS } from './lease-up.applicant';
import { MANAGER_ROWS } from './lease-up.manager';
import { isFinalLeaseUp, type LeaseUpState } from './lease-up.state';
import type { MessageCode } from './messages';

/**
 * The lease-up application's action table: one row per action of spec section 4, the applicant's
 * (domain/lease-up.applicant.ts) then the manager's (domain/lease-up.manager.ts). The workflow, the
 * API and the web app all read it.
 */
export const LEASE_UP_TABLE = { ...APPLICANT_ROWS, ...MANAGER_ROWS } satisfies ActionTable<LeaseUpState, LeaseUpInputs, ActorRole, LeaseUpEffect>;

type Table = typeof LEASE_UP_TABLE;
export const LEASE_UP_ACTIONS = actionsOf(LEASE_UP_TABLE);
export const APPLICANT_ACTIONS = actionsOf(APPLICANT_ROWS) satisfies ApplicantAction[];
export const MANAGER_ACTIONS = actionsOf(MANAGER_ROWS) satisfies ManagerAction[];
export const LeaseUpActionName = z.enum(LEASE_UP_ACTIONS as [keyof Table, ...(keyof Table)[]]);
export const ManagerActionName = z.enum(MANAGER_ACTIONS as [ManagerAction, ...ManagerAction[]]);
/** Actions a person must confirm because they cannot be undone (spec section 4). */
export const IRREVERSIBLE_ACTIONS = irreversibleActions(LEASE_UP_TABLE);
/** Actions that need a reason ('Please provide a reason.'). */
export const ACTIONS_NEEDING_REASON = actionsNeedingReason(LEASE_UP_TABLE);

/**
 * Any action on a finished application: the workflow has ended (or is ending) and takes no more
 * changes; an appeal after the window closed is "appeal period passed", anything else "closed".
 */
export function leaseUpFinished(s: Pick<LeaseUpState, 'status' | 'appealDeadline' | 'appealReason'>, action?: string): MessageCode | null {
  if (!isFinalLeaseUp(s)) return null;
  if (action === 'Appeal' && s.status === 'closed' && s.appealDeadline && !s.appealReason) return 'appealPeriodPassed';
  return 'applicationClosed';
}
