import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import type { ManagedOpportunity } from './domain';

/**
 * The manager's organisation's opportunities by name, for the opportunity filters of the task inbox
 * and the applications list (GET /api/Opportunity/manage/list).
 */
export function useOpportunityChoices() {
  return useQuery({
    queryKey: ['opportunity-choices'],
    queryFn: ({ signal }) => api.get<ManagedOpportunity[]>('/Opportunity/manage/list', { signal }),
    select: (list) => list.map((o) => ({ id: o.id, name: o.name })).sort((a, b) => a.name.localeCompare(b.name)),
  });
}
