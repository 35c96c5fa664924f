import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '../../../lib/api-client';
import type { AddressInput, AssetView, IncomeView, MemberView, ProfileCompletion, RequiredDocItem } from '../../../lib/domain';

/** GET /api/Household/profile: members, address, questions, preferences and completion in one read. */
export interface HouseholdProfile {
  householdId: string;
  householdSize: number;
  locked: boolean;
  members: MemberView[];
  address: AddressInput | null;
  preferences: Record<string, unknown> | null;
  hasIncome: boolean | null;
  hasAssets: boolean | null;
  /** The per-kind answers (trust, life insurance, EBT card), by asset kind. */
  assetFlags: Record<string, boolean>;
  completion: ProfileCompletion;
  submittedAt: string | null;
}

/** Section 7's per-kind asset questions, each with its own route. */
export const FLAG_ROUTES = { TrustAssets: 'UpdateTrustAssetFlag', LifeInsuranceAssets: 'UpdateLifeInsuranceAssetFlag', EBTCards: 'UpdateEBTCardAssetFlag' } as const;
export type FlaggedAssetKind = keyof typeof FLAG_ROUTES;

export const profileQuery = () => queryOptions({ queryKey: ['household', 'profile'], queryFn: ({ signal }) => api.get<HouseholdProfile>('/Household/profile', { signal }) });
export const incomeQuery = () => queryOptions({ queryKey: ['household', 'income'], queryFn: ({ signal }) => api.get<IncomeView[]>('/HouseholdIncome', { signal }) });
export const assetsQuery = () => queryOptions({ queryKey: ['household', 'assets'], queryFn: ({ signal }) => api.get<AssetView[]>('/HouseholdAssets', { signal }) });
export const requiredDocsQuery = () =>
  queryOptions({ queryKey: ['household', 'requiredDocs'], queryFn: ({ signal }) => api.get<RequiredDocItem[]>('/Document/GetRequiredDocs', { signal }) });
/** Spec section 3: lookups are fetched once and held for the session. */
export const lookupsQuery = () =>
  queryOptions({ queryKey: ['lookups'], queryFn: ({ signal }) => api.get<Record<string, string[]>>('/Lookups', { signal }), staleTime: Infinity, gcTime: Infinity });

export const useProfile = () => useQuery(profileQuery());
export const useIncome = () => useQuery(incomeQuery());
export const useAssets = () => useQuery(assetsQuery());
export const useRequiredDocs = () => useQuery(requiredDocsQuery());
export const useLookups = () => useQuery(lookupsQuery());

/** Any household change: afterwards every household read (and the completion it shows) is refetched. */
export function useHouseholdMutation<TInput>(call: (input: TInput) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => client.invalidateQueries({ queryKey: ['household'] }) });
}

export const householdCalls = {
  saveMember: (m: Record<string, unknown>) => (m.id ? api.put('/Household/UpdateApplicantOrMember', m) : api.post('/Household/CreateApplicantOrMember', m)),
  deleteMember: (id: string) => apiRequest('DELETE', `/Household/member/${id}`),
  saveAddress: (a: unknown) => api.post('/Household/addOrUpdateApplicantAddress', a),
  saveIncome: (i: unknown) => api.post('/HouseholdIncome/CreateOrUpdateIncome', i),
  deleteIncome: (id: string) => apiRequest('DELETE', `/HouseholdIncome/${id}`),
  incomeQuestion: ({ householdId, answer }: { householdId: string; answer: boolean }) =>
    api.post(`/Household/updateIncomeQuestionId/${householdId}`, { answer, confirmed: true }),
  saveAsset: (a: { kind: string }) => api.post(`/HouseholdAssets/${a.kind}`, a),
  deleteAsset: ({ kind, id }: { kind: string; id: string }) => apiRequest('DELETE', `/HouseholdAssets/${kind}/${id}`),
  assetQuestion: (hasAny: boolean) => api.put('/HouseholdAssets/UpdateAssetFlag', { hasAny, confirmed: true }),
  assetKindQuestion: ({ kind, hasAny }: { kind: FlaggedAssetKind; hasAny: boolean }) => api.put(`/HouseholdAssets/${FLAG_ROUTES[kind]}`, { hasAny, confirmed: true }),
  savePreferences: (p: unknown) => api.post('/HousingChoices/AdditionalPreferences', p),
  completeProfile: () => api.post('/Household/CompleteProfile'),
};
