/**
 * The dashboard while every outside source holds its answer (weather, air quality, transit, news):
 * it answers from memory, so it is as fast as with no source at all. The goal was a wall-clock
 * threshold of tests/api/dashboard-feeds.test.ts; that test now shows the behaviour (an answer given
 * while a source request stays held), and the figure is measured here on a stack of its own.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Api } from '../http';
import { summarize, type Summary } from '../stats';

export const DASHBOARD_GOAL_MS = 200;

export interface HangingSources {
  /** The environment pointing every feed of the API at the server (set before the API starts). */
  env: Record<string, string>;
  /** Requests received so far (each held, never answered). */
  held(): number;
  close(): Promise<void>;
}

/** One HTTP server under every feed's URL that takes each request and never answers it. */
export async function hangingSources(): Promise<HangingSources> {
  const open = new Set<ServerResponse>();
  let received = 0;
  const server = createServer((_request, response) => {
    received += 1;
    open.add(response);
    response.on('close', () => open.delete(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      FEED_NWS_URL: `${base}/nws`,
      FEED_AIRNOW_URL: `${base}/airnow`,
      FEED_AIRNOW_API_KEY: 'bench',
      FEED_MTA_URL: `${base}/mta`,
      FEED_NEWS_URL: `${base}/news`,
    },
    held: () => received,
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface DashboardFigures {
  summary: Summary;
  /** Source requests the API had made by the end (none is ever answered). */
  sourceRequests: number;
  error?: string;
}

/** `samples` dashboards of the applicant (after 3 untimed), with the browser's point, each timed to the whole body. */
export async function timeDashboard(api: Api, auth: string, samples: number, sources: HangingSources): Promise<DashboardFigures> {
  const path = '/api/Dashboard/getDashboardData?lat=40.81&lon=-73.96';
  for (let i = 0; i < 3; i++) await api.call('GET', path, auth);
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const answer = await api.call('GET', path, auth);
    if (answer.status !== 200) return { summary: summarize(out), sourceRequests: sources.held(), error: `${answer.status} ${answer.body?.message ?? ''}` };
    out.push(answer.ms);
  }
  return { summary: summarize(out), sourceRequests: sources.held() };
}
