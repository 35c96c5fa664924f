/**
 * The manager's lists and the applicant's own list, timed over HTTP at the current size. A paged
 * answer ({items, nextCursor}) is timed at its first page and at a deep page reached by following
 * cursors; a list that answers everything at once is timed as it is (and said so in the note).
 */
import type { Api } from '../http';
import { summarize, type Summary } from '../stats';

export interface ListSpec {
  name: string;
  path: string;
  who: 'manager' | 'applicant';
}

export interface ListFigure {
  name: string;
  first: Summary;
  deep: Summary | null;
  /** Rows in the first answer, and whether it pages. */
  rows: number;
  paged: boolean;
  bytes: number;
  deepPage: number;
  error?: string;
}

/** The lists the bench times (query fields a list does not know are ignored by its schema). */
export function listSpecs(lotteryId: string): ListSpec[] {
  return [
    { name: 'manager applications, organisation', path: '/api/LeaseUpApplication/getApplications?limit=25', who: 'manager' },
    { name: 'manager applications, one opportunity', path: `/api/LeaseUpApplication/getApplications?opportunityId=${lotteryId}&limit=25`, who: 'manager' },
    { name: 'task inbox, organisation', path: '/api/ManagerTasks?limit=25', who: 'manager' },
    { name: 'task inbox, one opportunity', path: `/api/ManagerTasks?contextId=${lotteryId}&limit=25`, who: 'manager' },
    { name: "applicant's own applications", path: '/api/LeaseUpApplication/getApplications', who: 'applicant' },
  ];
}

type Paged = { items: unknown[]; nextCursor: string | null };
const isPaged = (data: unknown): data is Paged => typeof data === 'object' && data !== null && Array.isArray((data as Paged).items) && 'nextCursor' in data;
const withCursor = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

/**
 * Times one list: `samples` requests of the first page (after 3 untimed), then, when it pages, the
 * page `deepPage` pages in. An unpaged list that is slow is sampled for at most `budgetMs`.
 */
export async function timeList(api: Api, auth: string, spec: ListSpec, samples: number, deepPage = 40, budgetMs = 20_000): Promise<ListFigure> {
  const probe = await api.call('GET', spec.path, auth);
  if (probe.status !== 200) {
    return { name: spec.name, first: summarize([]), deep: null, rows: 0, paged: false, bytes: 0, deepPage: 0, error: `${probe.status} ${probe.body?.message ?? ''}` };
  }
  const data = probe.body?.data;
  const paged = isPaged(data);
  const rows = paged ? data.items.length : Array.isArray(data) ? data.length : 0;
  const time = async (path: string) => {
    for (let i = 0; i < 3; i++) await api.call('GET', path, auth);
    const out: number[] = [];
    const until = performance.now() + budgetMs;
    for (let i = 0; i < samples && (i < 5 || performance.now() < until); i++) out.push((await api.call('GET', path, auth)).ms);
    return summarize(out);
  };
  const first = await time(spec.path);
  let deep: Summary | null = null;
  let reached = 0;
  if (paged) {
    let cursor = data.nextCursor;
    let path = spec.path;
    for (let page = 1; page < deepPage && cursor; page++) {
      path = withCursor(spec.path, cursor);
      const next = await api.call('GET', path, auth);
      cursor = isPaged(next.body?.data) ? next.body.data.nextCursor : null;
      reached = page + 1;
    }
    if (reached > 1) deep = await time(path);
  }
  return { name: spec.name, first, deep, rows, paged, bytes: probe.bytes, deepPage: reached };
}
