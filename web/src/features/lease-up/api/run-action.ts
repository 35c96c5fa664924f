import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import {
  MANAGER_ACTIONS,
  type DocumentItem,
  type ActorRole,
  type ApplicantAction,
  type ApplicationDetail,
  type LeaseUpAction,
  type LeaseUpView,
  type ManagerAction,
} from '../../../lib/domain';
import { applicationQueryKey } from './get-application';

const seg = encodeURIComponent;

/** What an action's form collects; each endpoint takes the fields its action needs. */
export interface ActionPayload {
  reason?: string;
  documents?: DocumentItem[];
  documentTypes?: string[];
  note?: string;
  dueAt?: string;
  slots?: string[];
  slot?: string;
  unitIds?: string[];
  expiresAt?: string;
  offerId?: string;
  accept?: boolean;
  householdSize?: number;
  householdIncome?: number;
  signatureBase64?: string;
  memberId?: string;
}

type Call = (id: string, p: ActionPayload) => Promise<ApplicationDetail | LeaseUpView>;
const post = (path: string, body?: unknown) => api.post<ApplicationDetail | LeaseUpView>(path, body ?? {});

/** Spec section 7: each applicant action has its own endpoint. */
const APPLICANT_CALLS: Record<ApplicantAction, Call> = {
  SubmitProfile: (id) => post(`/Household/submit-applicant-profile/${seg(id)}`),
  SubmitAdditionalDocuments: (id, p) => post(`/LeaseUpApplication/submit-additional-documents/${seg(id)}`, { documents: p.documents ?? [] }),
  ProvideConsentForScreening: (id) => post(`/LeaseUpApplication/background-consent/${seg(id)}/true`),
  DenyConsentForScreening: (id) => post(`/LeaseUpApplication/background-consent/${seg(id)}/false`),
  ScheduleAppointment: (id, p) => post('/LeaseUpApplication/schedule-appointment', { applicationId: id, slot: p.slot }),
  RescheduleAppointment: (id, p) => post('/LeaseUpApplication/schedule-appointment', { applicationId: id, slot: p.slot }),
  RespondToUnitOffer: (id, p) => post('/LeaseUpApplication/unit-offer/respond', { applicationId: id, offerId: p.offerId, accept: p.accept }),
  SignTIC: (id, p) => api.put(`/Document/applytenantsignaturetotic/${seg(id)}`, { signatureBase64: p.signatureBase64, memberId: p.memberId }),
  SignLeaseLetter: (id, p) => post(`/LeaseUpApplication/sign-lease-document/${seg(id)}`, { signatureBase64: p.signatureBase64 }),
  Appeal: (id, p) => post('/LeaseUpApplication/file-appeal', { applicationId: id, reason: p.reason }),
  UpdateInfo: (id, p) => post(`/LeaseUpApplication/update-info/${seg(id)}`, { householdSize: p.householdSize, householdIncome: p.householdIncome }),
  Withdraw: (id) => post(`/LeaseUpApplication/withdraw-application/${seg(id)}`),
};

/** Manager actions share one endpoint named by the action. */
const managerCall = (id: string, action: ManagerAction, p: ActionPayload) => {
  const { signatureBase64: _unused, ...body } = p;
  return post(`/LeaseUpApplication/updateleaseapplicationstatus/${seg(id)}/${seg(action)}`, body);
};

/** Only actions this client has an endpoint for become buttons; the server decides which are offered. */
export function isKnownAction(role: ActorRole, action: string): action is LeaseUpAction {
  return role === 'applicant' ? Object.hasOwn(APPLICANT_CALLS, action) : (MANAGER_ACTIONS as readonly string[]).includes(action);
}

export interface RunActionInput {
  applicationId: string;
  role: ActorRole;
  action: LeaseUpAction;
  payload?: ActionPayload;
}

export function runAction({ applicationId, role, action, payload = {} }: RunActionInput): Promise<ApplicationDetail | LeaseUpView> {
  return role === 'manager'
    ? managerCall(applicationId, action as ManagerAction, payload)
    : APPLICANT_CALLS[action as ApplicantAction](applicationId, payload);
}

/** Runs an action, shows the answer at once, then reloads the detail and the lists. */
export function useRunAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAction,
    // The answer is the case's new view: shown as is, without asking the server again.
    onSuccess: (view, { applicationId }) => {
      queryClient.setQueryData<ApplicationDetail>(applicationQueryKey(applicationId), (old) => (old && view ? { ...old, ...view } : old));
      return queryClient.invalidateQueries({ queryKey: ['applications'], predicate: (q) => q.queryKey[1] !== 'detail' });
    },
    // A refusal usually means the page was stale (someone else acted): reload it.
    onError: () => queryClient.invalidateQueries({ queryKey: ['applications'] }),
  });
}
