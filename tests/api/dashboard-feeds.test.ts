/**
 * The dashboard's weather, air quality, transit and news. Each adapter runs over HTTP
 * against a local server speaking the source's real format (NWS points + forecast, AirNow current
 * observation, a GTFS-realtime FeedMessage built with the bindings, RSS 2.0 and Atom); the server
 * fetches on its schedule, and the dashboard answers from memory whatever the sources do (shown by
 * answers given while a source holds a request, never by a stopwatch).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardFeeds, FeedCard, TransitData } from '../../domain';
import { airNowCurrent } from '../../infra/feeds/airnow';
import { FeedHub } from '../../infra/feeds/hub';
import { FeedError } from '../../infra/feeds/http';
import { decodeFeed, mtaFeed } from '../../infra/feeds/gtfs';
import { newsFeed } from '../../infra/feeds/news';
import { nwsForecast, nwsForecastUrl } from '../../infra/feeds/nws';
import { loadConfig } from '../../infra/config';
import { startFeedSources, subwayFeedMessage } from '../helpers/feed-sources';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

type Sources = Awaited<ReturnType<typeof startFeedSources>>;
const NAMES = ['weather', 'airQuality', 'transit', 'news'] as const;
const signal = () => AbortSignal.timeout(5_000);

describe('feed adapters over HTTP (recorded answers in the sources formats)', () => {
  let sources: Sources;
  beforeAll(async () => {
    sources = await startFeedSources();
  });
  afterAll(async () => sources.close());

  it('NWS: points names the forecast URL, the forecast gives periods; the User-Agent is sent', async () => {
    const o = { baseUrl: `${sources.base}/nws`, userAgent: 'housing-portal-tests (tests@example.org)' };
    const forecastUrl = await nwsForecastUrl(o, { lat: 40.7128, lon: -74.006 }, signal());
    expect(forecastUrl).toBe(`${sources.base}/nws/gridpoints/OKX/33,35/forecast`);
    const periods = await nwsForecast(o, forecastUrl, signal());
    expect(periods).toHaveLength(4);
    expect(periods[0]).toEqual({ startTime: '2026-11-26T10:00:00-05:00', isDaytime: true, temperature: 48, temperatureUnit: 'F', shortForecast: 'Sunny', windSpeed: '10 mph' });
    expect(sources.seen.filter((s) => s.url.startsWith('/nws/')).every((s) => s.userAgent === o.userAgent)).toBe(true);
    expect(sources.seen.some((s) => s.url === '/nws/points/40.7128,-74.0060')).toBe(true);
  });

  it('AirNow: the current observation by ZIP, with the key', async () => {
    const data = await airNowCurrent({ baseUrl: `${sources.base}/airnow`, apiKey: 'k-123', zip: '10025', distanceMiles: 25 }, signal());
    expect(data).toEqual({
      reportingArea: 'New York City Region',
      observed: { date: '2026-11-26', hour: 9, timeZone: 'EST' },
      readings: [{ parameter: 'O3', aqi: 27, category: 1 }, { parameter: 'PM2.5', aqi: 61, category: 2 }],
    });
    const asked = new URL(sources.seen.at(-1)!.url, sources.base);
    expect(Object.fromEntries(asked.searchParams)).toEqual({ format: 'application/json', zipCode: '10025', distance: '25', API_KEY: 'k-123' });
  });

  it('MTA: a GTFS-realtime FeedMessage is decoded with the bindings', async () => {
    const snapshot = await mtaFeed({ baseUrl: `${sources.base}/mta` }, 'nyct%2Fgtfs', signal());
    expect(sources.seen.at(-1)!.url).toBe('/mta/nyct%2Fgtfs');
    expect(snapshot.predictions.filter((p) => p.stopId.startsWith('117')).map((p) => p.stopId).sort()).toEqual(['117N', '117N', '117S', '117S']);
    expect(() => decodeFeed(Buffer.from('<html>no</html>'))).toThrow(FeedError);
    const now = 1_800_000_000;
    const arrivals = (await import('../../infra/feeds/gtfs')).arrivalsAt(decodeFeed(subwayFeedMessage(now)), '117', new Date(now * 1000));
    // The train that already left is not listed; soonest first, both directions.
    expect(arrivals.map((a) => [a.routeId, a.direction, a.minutes])).toEqual([['1', 'S', 1], ['1', 'N', 3], ['1', 'N', 10]]);
  });

  it('news: RSS 2.0 and Atom parse to titles, web links and dates', async () => {
    const rss = await newsFeed(`${sources.base}/news/rss`, signal());
    expect(rss.title).toBe('NYC Housing News');
    expect(rss.items[0]).toEqual({ title: 'Cooling centers open across the five boroughs', url: 'https://news.example.org/nyc/cooling-centers', publishedAt: '2026-11-26T18:30:00.000Z' });
    // A javascript: link from a feed is never passed on.
    expect(rss.items[2]).toMatchObject({ title: 'A link that must not be followed', url: null });
    const atom = await newsFeed(`${sources.base}/news/atom`, signal());
    expect(atom.title).toBe('NYC Neighborhood Updates');
    expect(atom.items.map((i) => i.url)).toEqual(['https://updates.example.org/harlem-library', 'https://updates.example.org/street-fair']);
    expect(atom.items[1]!.publishedAt).toBe('2026-11-25T12:00:00.000Z');
  });

  it('an error status, a malformed body and a source that is down are FeedErrors that do not name the URL', async () => {
    const key = 'secret-airnow-key';
    const o = { baseUrl: `${sources.base}/airnow`, apiKey: key, zip: '10007', distanceMiles: 25 };
    sources.setMode('error');
    await expect(airNowCurrent(o, signal())).rejects.toThrow(/^answered 503$/);
    sources.setMode('malformed');
    await expect(airNowCurrent(o, signal())).rejects.toThrow(/malformed/);
    await expect(newsFeed(`${sources.base}/news/rss`, signal())).rejects.toThrow(FeedError);
    sources.setMode('ok');
    const down = await startFeedSources();
    await down.close();
    const error = await airNowCurrent({ ...o, baseUrl: `${down.base}/airnow` }, signal()).catch((e: Error) => e);
    expect(error).toBeInstanceOf(FeedError);
    expect((error as Error).message).toMatch(/^unreachable/);
    expect((error as Error).message).not.toContain(key);
  });

  it('a full table of weather points takes no new one: the sources are asked about a bounded set of points', async () => {
    const base = { DATABASE_URL: 'postgres://x@localhost/x', TEMPORAL_ADDRESS: 'localhost:7233', JWT_SECRET: 'x'.repeat(32), DATA_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') };
    const hub = new FeedHub(loadConfig({ ...base, FEED_NWS_URL: `${sources.base}/nws`, FEED_WEATHER_MAX_POINTS: '1' }), { warn: () => undefined });
    hub.start();
    try {
      await hub.refreshAll();
      expect(hub.weather({ lat: 40.81, lon: -73.96 }).data?.place).toBe('newYorkCity');
      await hub.refreshAll();
      expect(hub.weather({ lat: 40.81, lon: -73.96 }).data?.place).toBe('yourLocation');
      const asked = sources.seen.length;
      expect(hub.weather({ lat: 40.6, lon: -73.9 }).data?.place).toBe('newYorkCity');
      await hub.refreshAll();
      expect(hub.weatherPointCount).toBe(1);
      expect(sources.seen.slice(asked).some((s) => s.url.includes('40.6000'))).toBe(false);
    } finally {
      hub.stop();
    }
  });

  it('a hub with no URLs fetches nothing and says each feed is not configured; schedules stop cleanly', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://x@localhost/x', TEMPORAL_ADDRESS: 'localhost:7233', JWT_SECRET: 'x'.repeat(32), DATA_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') });
    const hub = new FeedHub(config, { warn: () => undefined });
    hub.start();
    const feeds = hub.dashboard({ point: { lat: 40.81, lon: -73.96 }, building: null });
    for (const name of NAMES) expect(feeds[name]).toMatchObject({ state: 'unavailable', reason: 'notConfigured', data: null });
    hub.stop();
  });
});

describe('the dashboard route and GET /api/GTFSRealtimeFeed with the feeds behind local servers', () => {
  let sources: Sources;
  let stack: Stack;
  let tenant: { authorization: string };

  beforeAll(async () => {
    sources = await startFeedSources();
    stack = await startStack({ config: sources.config() });
    tenant = await signIn(stack.app, 'Tenant');
  });
  afterAll(async () => {
    await stack?.close();
    await sources?.close().catch(() => undefined);
  });

  /** The dashboard's feeds (the answer must be a 200 whatever the sources do). */
  async function dashboard(query = ''): Promise<DashboardFeeds> {
    const response = await stack.app.inject({ method: 'GET', url: `/api/Dashboard/getDashboardData${query}`, headers: tenant });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.feeds;
  }

  const states = (feeds: DashboardFeeds) => NAMES.map((n) => feeds[n].state);

  it('serves the four cards fresh once the schedule has fetched them', async () => {
    const feeds = await eventually(async () => {
      const feeds = await dashboard();
      return states(feeds).every((s) => s === 'fresh') ? feeds : null;
    }, 30_000, 'every card fresh');
    expect(feeds.weather.data).toMatchObject({ place: 'newYorkCity', point: { lat: 40.7128, lon: -74.006 } });
    expect(feeds.weather.data!.periods[0]).toMatchObject({ temperature: 48, shortForecast: 'Sunny' });
    expect(feeds.airQuality.data!.readings).toEqual([{ parameter: 'O3', aqi: 27, category: 1 }, { parameter: 'PM2.5', aqi: 61, category: 2 }]);
    // The tenant's building (410 Riverside Dr) is nearest 116 St-Columbia University.
    expect(feeds.transit.data!.stop).toMatchObject({ stopId: '117', feedId: '1234567' });
    expect(feeds.transit.data!.arrivals.map((a) => a.direction)).toEqual(['S', 'N', 'N']);
    expect(feeds.news.data!.items[0]!.title).toBe('Cooling centers open across the five boroughs');
    for (const name of NAMES) expect(feeds[name].ageSeconds).toBeGreaterThanOrEqual(0);
  });

  it("the browser's rounded point gets its own forecast, kept on the schedule (not fetched per visitor)", async () => {
    // The first ask registers the point and still answers New York City's forecast at once.
    const first = await stack.app.inject({ method: 'GET', url: '/api/Dashboard/getDashboardData?lat=40.8123&lon=-73.9611', headers: tenant });
    expect(first.json().data.feeds.weather.data.place).toBe('newYorkCity');
    const mine = await eventually(async () => {
      const feeds = await dashboard('?lat=40.79&lon=-74.04');
      return feeds.weather.data?.place === 'yourLocation' ? feeds.weather : null;
    }, 30_000, "the browser point's own forecast");
    expect(mine.data).toMatchObject({ point: { lat: 40.8, lon: -74 } });
    expect(mine.data!.periods[0]!.temperature).toBe(51);
    expect(sources.seen.filter((s) => s.url.startsWith('/nws/points/40.8000,-74.0000'))).toHaveLength(1);
    expect(stack.app.feeds.weatherPointCount).toBe(1);
    const bad = await stack.app.inject({ method: 'GET', url: '/api/Dashboard/getDashboardData?lat=91&lon=0', headers: tenant });
    expect(bad.statusCode).toBe(400);
    const half = await stack.app.inject({ method: 'GET', url: '/api/Dashboard/getDashboardData?lat=40.7', headers: tenant });
    expect(half.statusCode).toBe(400);
  });

  it('GET /api/GTFSRealtimeFeed/{feed}/{stop}: arrivals for a known stop; 404 saying which for an unknown feed or stop; guarded', async () => {
    const ok = await stack.app.inject({ method: 'GET', url: '/api/GTFSRealtimeFeed/1234567/117', headers: tenant });
    expect(ok.statusCode).toBe(200);
    const card = ok.json().data as FeedCard<TransitData>;
    expect(card.state).toBe('fresh');
    expect(card.data!.stop.name).toBe('116 St-Columbia University');
    expect(card.data!.arrivals.length).toBe(3);
    const feed = await stack.app.inject({ method: 'GET', url: '/api/GTFSRealtimeFeed/xyz/117', headers: tenant });
    expect(feed.statusCode).toBe(404);
    expect(feed.json()).toMatchObject({ status: 404, message: 'There is no such transit feed.', data: { code: 'unknownTransitFeed' } });
    const stop = await stack.app.inject({ method: 'GET', url: '/api/GTFSRealtimeFeed/ace/117', headers: tenant });
    expect(stop.json()).toMatchObject({ status: 404, data: { code: 'unknownTransitStop' } });
    const otherFeed = await stack.app.inject({ method: 'GET', url: '/api/GTFSRealtimeFeed/jz/ZZZ9', headers: tenant });
    expect(otherFeed.json()).toMatchObject({ status: 404, data: { code: 'unknownTransitStop' } });
    const anonymous = await stack.app.inject({ method: 'GET', url: '/api/GTFSRealtimeFeed/1234567/117' });
    expect(anonymous.statusCode).toBe(401);
  });

  /** Waits until every card has the state; every answer meanwhile is a 200. */
  const until = (state: 'fresh' | 'stale'): Promise<DashboardFeeds> =>
    eventually(async () => {
      const feeds = await dashboard();
      return states(feeds).every((s) => s === state) ? feeds : null;
    }, 30_000, `every card ${state}`);

  /**
   * Answers given while a source held a request unanswered the whole time: a request held before the
   * dashboard was asked twice is still held when the second answer arrives. A dashboard that fetched,
   * or waited for the schedule's fetch, could not answer twice inside one hold: each hold ends with
   * the fetch's own time-out, and a wait lasts until a hold ends. How fast it answers is a speed
   * goal, measured by `npm run bench` (tests/bench/phases/dashboard.ts).
   */
  const answeredDuringAHold = (): Promise<DashboardFeeds> =>
    eventually(async () => {
      const before = sources.held();
      if (before.size === 0) return null;
      await dashboard();
      const feeds = await dashboard();
      const after = sources.held();
      return [...before].some((n) => after.has(n)) ? feeds : null;
    }, 30_000, 'two dashboard answers while one source request stayed held');

  for (const mode of ['slow', 'error', 'malformed'] as const) {
    it(`source ${mode}: the dashboard still answers and says each feed is stale, with its age`, async () => {
      await until('fresh');
      const before = sources.requests.nws! + sources.requests.mta!;
      sources.setMode(mode);
      if (mode === 'slow') await answeredDuringAHold();
      const stale = await until('stale');
      for (const name of NAMES) {
        expect(stale[name].data, name).not.toBeNull();
        expect(stale[name].fetchedAt, name).not.toBeNull();
        expect(stale[name].ageSeconds, name).toBeGreaterThanOrEqual(0);
      }
      expect(sources.requests.nws! + sources.requests.mta!).toBeGreaterThan(before);
      if (mode === 'slow') await answeredDuringAHold();
      sources.setMode('ok');
    });
  }

  it('a source that is down: still answered, the cards stale; the schedule keeps trying and stops with the app', async () => {
    await until('fresh');
    await sources.close();
    const stale = await until('stale');
    expect(stale.transit.data!.stop.stopId).toBe('117');
    const log = (await import('node:fs')).readFileSync(stack.logFile, 'utf8');
    expect(log).toContain('feed fetch failed');
    expect(log).not.toContain('test-airnow-key');
  });
});

describe('the dashboard with no feed configured (the embedded default: no network)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: false });
  });
  afterAll(async () => stack?.close());

  it('answers with four unavailable cards saying none is configured, and the hub has nothing to fetch', async () => {
    const user = await signIn(stack.app, 'User');
    const response = await stack.app.inject({ method: 'GET', url: '/api/Dashboard/getDashboardData?lat=40.8&lon=-73.9', headers: user });
    expect(response.statusCode).toBe(200);
    const feeds = response.json().data.feeds as DashboardFeeds;
    for (const name of NAMES) expect(feeds[name]).toEqual({ state: 'unavailable', fetchedAt: null, ageSeconds: null, reason: 'notConfigured', data: null });
    expect([stack.app.feeds.airQuality, stack.app.feeds.news, ...stack.app.feeds.transit.values()].some((f) => f.configured)).toBe(false);
    // No point is taken on for a source that is not there.
    expect(stack.app.feeds.weatherPointCount).toBe(0);
    const transit = await stack.app.inject({ method: 'GET', url: '/api/GTFSRealtimeFeed/l/L06', headers: user });
    expect(transit.json().data).toMatchObject({ state: 'unavailable', reason: 'notConfigured' });
  });
});
