import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { OpportunitySummary } from '../../../lib/domain';

const favoritesKey = ['opportunities', 'favorites'] as const;

/** GET /api/FavoriteOpportunity/my-favorites */
export function useFavorites(enabled = true) {
  return useQuery({
    queryKey: favoritesKey,
    queryFn: ({ signal }) => api.get<OpportunitySummary[]>('/FavoriteOpportunity/my-favorites', { signal }),
    enabled,
  });
}

/** POST /api/FavoriteOpportunity (add or update). */
export function useSetFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { opportunityId: string; isFavorite: boolean }) => api.post<{ opportunityId: string; isFavorite: boolean }>('/FavoriteOpportunity', input),
    // The lists mark favourites too: refresh every opportunity list.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['opportunities'] }),
  });
}
