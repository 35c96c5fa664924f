import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import GtfsRealtimeBindings from 'gtfs-realtime-bindings';

const { transit_realtime } = GtfsRealtimeBindings;
const fixture = (name: string) => readFileSync(new URL(`../fixtures/feeds/${name}`, import.meta.url), 'utf8');

/** ok: recorded answers; slow: holds each request unanswered (until the caller gives up or the mode changes); error: 503; malformed: a body that is not the format. */
export type SourceMode = 'ok' | 'slow' | 'error' | 'malformed';

/** A GTFS-realtime FeedMessage built with the bindings: two trains at each of stop 117's platforms, from `now`. */
export function subwayFeedMessage(nowSeconds: number): Uint8Array {
  const trip = (id: string, stopId: string, inSeconds: number) => ({
    id,
    tripUpdate: {
      trip: { tripId: `${id}_1..N03R`, routeId: '1', startDate: '20261126' },
      stopTimeUpdate: [
        { stopId, arrival: { time: nowSeconds + inSeconds }, departure: { time: nowSeconds + inSeconds + 30 } },
        { stopId: `116${stopId.slice(3)}`, arrival: { time: nowSeconds + inSeconds + 90 } },
      ],
    },
  });
  const message = transit_realtime.FeedMessage.create({
    header: { gtfsRealtimeVersion: '1.0', incrementality: transit_realtime.FeedHeader.Incrementality.FULL_DATASET, timestamp: nowSeconds },
    entity: [trip('t1', '117N', 180), trip('t2', '117S', 60), trip('t3', '117N', 600), { id: 'gone', tripUpdate: { trip: { tripId: 'gone', routeId: '1' }, stopTimeUpdate: [{ stopId: '117S', arrival: { time: nowSeconds - 120 } }] } }],
  });
  return transit_realtime.FeedMessage.encode(message).finish();
}

/**
 * One local HTTP server speaking the four sources' formats under /nws, /airnow, /mta and /news
 * (RSS at /news/rss, Atom at /news/atom). `mode` switches every source at once; `requests` counts
 * calls per source (the schedule, not visitors, drives them).
 */
export async function startFeedSources() {
  let mode: SourceMode = 'ok';
  const requests: Record<string, number> = { nws: 0, airnow: 0, mta: 0, news: 0 };
  const seen: { url: string; userAgent: string | undefined }[] = [];
  const hanging = new Map<ServerResponse, number>();
  let received = 0;
  let base = '';

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const source = url.split('/')[1] ?? '';
    requests[source] = (requests[source] ?? 0) + 1;
    received += 1;
    seen.push({ url, userAgent: req.headers['user-agent'] });
    if (mode === 'slow') {
      hanging.set(res, received);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (mode === 'error') {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"title":"Service Unavailable"}');
      return;
    }
    const malformed = mode === 'malformed';
    if (source === 'nws') {
      if (url.startsWith('/nws/points/')) {
        const points = JSON.parse(fixture('nws-points.json'));
        const [lat] = url.slice('/nws/points/'.length).split(',');
        points.properties.forecast = `${base}/nws/gridpoints/OKX/${lat === '40.7128' ? '33,35' : '34,38'}/forecast`;
        res.writeHead(200, { 'content-type': 'application/geo+json' }).end(JSON.stringify(points));
        return;
      }
      if (url.startsWith('/nws/gridpoints/')) {
        const forecast = fixture('nws-forecast.json');
        res.writeHead(200, { 'content-type': 'application/geo+json' }).end(malformed ? forecast.slice(0, 200) : url.includes('34,38') ? forecast.replace('"temperature": 48', '"temperature": 51') : forecast);
        return;
      }
    }
    if (source === 'airnow' && url.startsWith('/airnow/aq/observation/zipCode/current/')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(malformed ? '<html>Maintenance</html>' : fixture('airnow-current.json'));
      return;
    }
    if (source === 'mta') {
      const body = malformed ? Buffer.from('<html>not a protobuf message</html>') : Buffer.from(subwayFeedMessage(Math.floor(Date.now() / 1000)));
      res.writeHead(200, { 'content-type': 'application/x-google-protobuf' }).end(body);
      return;
    }
    if (source === 'news') {
      const xml = url === '/news/atom' ? fixture('news-atom.xml') : fixture('news-rss.xml');
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(malformed ? '{"this is": "not xml"}' : xml);
      return;
    }
    res.writeHead(404).end();
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    seen,
    /** The numbers of the requests held unanswered right now (slow mode; a number is never reused). */
    held(): Set<number> {
      return new Set(hanging.values());
    },
    setMode(next: SourceMode) {
      mode = next;
      if (next !== 'slow') for (const res of hanging.keys()) res.destroy();
    },
    /** The source goes down: the port stops answering (connection refused). */
    async close() {
      for (const res of hanging.keys()) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    /** The environment of a stack whose feeds are these sources. */
    config(overrides: Record<string, string> = {}): Record<string, string> {
      return {
        FEED_NWS_URL: `${base}/nws`,
        FEED_NWS_USER_AGENT: 'housing-portal-tests (tests@example.org)',
        FEED_AIRNOW_URL: `${base}/airnow`,
        FEED_AIRNOW_API_KEY: 'test-airnow-key',
        FEED_MTA_URL: `${base}/mta`,
        FEED_NEWS_URL: `${base}/news/rss`,
        FEED_WEATHER_REFRESH_SECONDS: '1',
        FEED_AIRNOW_REFRESH_SECONDS: '1',
        FEED_MTA_REFRESH_SECONDS: '1',
        FEED_NEWS_REFRESH_SECONDS: '1',
        FEED_TIMEOUT_MS: '1500',
        ...overrides,
      };
    },
  };
}
