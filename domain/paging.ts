import { z } from 'zod';

/** Every list that can grow pages by cursor: the answer names the next page's cursor (null at the end). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 100;

/** Query fields every paged list accepts; the cursor is opaque (made by the server). */
export const PageQuery = z.object({
  cursor: z.string().max(600).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;
