import { z } from 'zod';
import { PageQuery } from './paging';

/**
 * `GET /api/LeaseUpApplication/getApplications`: a household's own applications, or a manager's
 * organisation's (optionally one opportunity's), newest first, a page at a time by cursor.
 */
export const ApplicationListQuery = PageQuery.extend({
  search: z.string().trim().max(200).optional(),
  opportunityId: z.string().uuid('Invalid id').optional(),
});
export type ApplicationListQuery = z.infer<typeof ApplicationListQuery>;
