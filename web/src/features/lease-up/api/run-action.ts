import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import {
  MANAGER_ACTIONS,
  type ActionBody,
  type ActorRole,
  type ApplicantAction,
  type ApplicationDetail,
  type LeaseUpAction,
  type LeaseUpView,
  type ManagerAction,
} from '../../../lib/domain';
import { applicationQueryKey } from './get-application';

const seg = encodeURIComponent;

/** Spec section 7: each applicant action has its own endpoint. */
const APPLICANT_ENDPOINTS: Record<ApplicantAction, (id: string) => string> = {
  SubmitProfile: (id) => `/Household/submit-applicant-profile/${seg(id)}`,
  ProvideConsentForScreening: (id) => `/LeaseUpApplication/background-consent/${seg(id)}/true`,
  DenyConsentForScreening: (id) => `/LeaseUpApplication/background-consent/${seg(id)}/false`,
  Withdraw: (id) => `/LeaseUpApplication/withdraw-application/${seg(id)}`,
};

/** Manager actions share one endpoint named by the action. */
const managerEndpoint = (id: string, action: ManagerAction) =>
  `/LeaseUpApplication/updateleaseapplicationstatus/${seg(id)}/${seg(action)}`;

/** Only actions this client has an endpoint for become buttons; the server decides which are offered. */
export function isKnownAction(role: ActorRole, action: string): action is LeaseUpAction {
  return role === 'applicant'
    ? Object.hasOwn(APPLICANT_ENDPOINTS, action)
    : (MANAGER_ACTIONS as readonly string[]).includes(action);
}

export interface RunActionInput {
  applicationId: string;
  role: ActorRole;
  action: LeaseUpAction;
  reason?: string;
}

export function runAction({ applicationId, role, action, reason }: RunActionInput): Promise<ApplicationDetail | LeaseUpView> {
  const body: ActionBody = reason ? { reason } : {};
  const path =
    role === 'manager'
      ? managerEndpoint(applicationId, action as ManagerAction)
      : APPLICANT_ENDPOINTS[action as ApplicantAction](applicationId);
  return api.post<ApplicationDetail | LeaseUpView>(path, body);
}

/** Runs an action, shows the answer at once, then reloads the detail and the lists. */
export function useRunAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAction,
    onSuccess: (view, { applicationId }) => {
      queryClient.setQueryData<ApplicationDetail>(applicationQueryKey(applicationId), (old) =>
        old && view ? { ...old, ...view } : old,
      );
    },
    // A refusal usually means the page was stale (someone else acted): reload it either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}
