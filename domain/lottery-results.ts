import { z } from 'zod';
import { idOf } from './ids';

/**
 * Public lottery results: the draw's published values and, by log number,
 * a rank and preference-group positions. Never a name or any other personal data.
 */
export const LotteryResultsParams = z.object({ opportunityId: idOf('Invalid opportunity id') });

export const RESULTS_PAGE_MAX = 100;

export const LotteryResultsQuery = z.object({
  /** One application's place; log numbers are issued as `LU-000123` and searched case-insensitively. */
  logNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,40}$/, 'Invalid log number')
    .transform((v) => v.toUpperCase())
    .optional(),
  /** Cursor: the last rank of the previous page. */
  after: z.coerce.number({ error: 'Invalid cursor' }).int('Invalid cursor').min(0, 'Invalid cursor').max(10_000_000, 'Invalid cursor').optional(),
  limit: z.coerce.number({ error: 'Invalid page size' }).int('Invalid page size').min(1, 'Invalid page size').max(RESULTS_PAGE_MAX, `At most ${RESULTS_PAGE_MAX} per page`).default(50),
});
export type LotteryResultsQuery = z.infer<typeof LotteryResultsQuery>;

/**
 * What is published: the seed hash from the start; the list's hash and size when it freezes (before
 * the draw); everything else once the lottery is drawn.
 */
export interface LotteryPublication {
  opportunityId: string;
  opportunityName: string;
  drawn: boolean;
  seedHash: string;
  seed: string | null;
  publicValue: string | null;
  algorithm: string | null;
  listHash: string | null;
  resultHash: string | null;
  entries: number | null;
  units: number;
  setAsides: { group: string; share: number }[];
  drawnAt: string | null;
  /** When the list freezes (end of the mail grace period); null for a lottery drawn without a freeze. */
  listFreezesAt: string | null;
  /** The list as frozen, published before the draw. */
  frozen: { listHash: string; entries: number; frozenAt: string } | null;
  /** The draw recomputed from these values matches the stored ranks (null before the draw). */
  verified: boolean | null;
}

export interface LotteryPlace {
  logNumber: string;
  rank: number;
  groupPositions: Record<string, number>;
}

export interface LotteryRanksPage {
  items: { logNumber: string; rank: number }[];
  /** Pass as `after` for the next page; null on the last one. */
  nextAfter: number | null;
}

export interface LotteryResults {
  lottery: LotteryPublication;
  /** With `?logNumber=`: that application's place. */
  place: LotteryPlace | null;
  /** Without `?logNumber=`, once drawn: one page of the ranked list. */
  ranks: LotteryRanksPage | null;
}
