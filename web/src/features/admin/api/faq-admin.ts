import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { FaqCategory, FaqCategoryBody, FaqQuestion, FaqQuestionBody } from '../../../lib/domain';

/** The admin side of `api/FaqCategory` (paths beside GET chosen by the API). */
const seg = encodeURIComponent;
const faqKey = ['faq'] as const;

/** The whole FAQ (it is bounded: no paging), fresh each time the screen opens. */
export const useFaqAdmin = () => useQuery({ queryKey: [...faqKey, 'admin'], queryFn: ({ signal }) => api.get<FaqCategory[]>('/FaqCategory', { signal }) });

export type FaqChange =
  | { kind: 'saveCategory'; id: string | null; body: FaqCategoryBody }
  | { kind: 'deleteCategory'; id: string }
  | { kind: 'saveQuestion'; categoryId: string; id: string | null; body: FaqQuestionBody }
  | { kind: 'deleteQuestion'; id: string };

export function useFaqChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: FaqChange): Promise<FaqCategory | FaqQuestion | unknown> => {
      switch (change.kind) {
        case 'saveCategory':
          return change.id ? api.put(`/FaqCategory/${seg(change.id)}`, change.body) : api.post('/FaqCategory', change.body);
        case 'deleteCategory':
          return api.delete(`/FaqCategory/${seg(change.id)}`);
        case 'saveQuestion':
          return change.id ? api.put(`/FaqCategory/questions/${seg(change.id)}`, change.body) : api.post(`/FaqCategory/${seg(change.categoryId)}/questions`, change.body);
        case 'deleteQuestion':
          return api.delete(`/FaqCategory/questions/${seg(change.id)}`);
      }
    },
    // The help page and the ticket form's suggestions read the same FAQ.
    onSuccess: () => void client.invalidateQueries({ queryKey: faqKey }),
  });
}
