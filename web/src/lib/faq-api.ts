import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import type { FaqCategory, FaqQuestion } from './domain';

/** `GET api/FaqCategory` (spec section 7): the FAQ, or the questions matching every word of a search. */
export const faqQueryOptions = (search: string) =>
  queryOptions({
    queryKey: ['faq', 'list', search],
    queryFn: ({ signal }) => api.get<FaqCategory[]>('/FaqCategory', { signal, query: search ? { search } : {} }),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });

export const useFaq = (search: string) => useQuery(faqQueryOptions(search));

/** `GET api/FaqCategory/suggestions`: answers to offer while a person writes a ticket. */
export function useFaqSuggestions(text: string) {
  return useQuery({
    queryKey: ['faq', 'suggestions', text],
    queryFn: ({ signal }) => api.get<FaqQuestion[]>('/FaqCategory/suggestions', { signal, query: { text } }),
    enabled: text.trim().length >= 4,
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
  });
}
