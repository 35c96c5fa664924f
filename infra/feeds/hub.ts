import { NEW_YORK_CITY, roundCoordinate, type AirQualityData, type DashboardFeeds, type FeedCard, type NewsData, type TransitData, type TransitStop, type WeatherData, type WeatherPeriod } from '../../domain/feeds';
import type { Config } from '../config';
import { airNowCurrent } from './airnow';
import { arrivalsAt, mtaFeed, type GtfsFeedSnapshot } from './gtfs';
import { newsFeed } from './news';
import { nwsForecast, nwsForecastUrl, type NwsOptions } from './nws';
import { ScheduledFeed, type FeedLog } from './scheduled';
import { MTA_FEEDS, TRANSIT_STOPS, findStop, nearestStop } from './stops';
import { HOUR } from '../../domain/time';

export type FeedConfig = Pick<
  Config,
  | 'FEED_NWS_URL' | 'FEED_NWS_USER_AGENT' | 'FEED_AIRNOW_URL' | 'FEED_AIRNOW_API_KEY' | 'FEED_AIRNOW_ZIP' | 'FEED_MTA_URL' | 'FEED_MTA_API_KEY' | 'FEED_NEWS_URL'
  | 'FEED_WEATHER_REFRESH_SECONDS' | 'FEED_AIRNOW_REFRESH_SECONDS' | 'FEED_MTA_REFRESH_SECONDS' | 'FEED_NEWS_REFRESH_SECONDS' | 'FEED_TIMEOUT_MS' | 'FEED_WEATHER_MAX_POINTS'
>;

type Point = { lat: number; lon: number };
const keyOf = (p: Point) => `${p.lat.toFixed(4)},${p.lon.toFixed(4)}`;
/** A browser point not asked for in this long stops being fetched. */
const POINT_IDLE_MS = 6 * HOUR;

interface WeatherSlot {
  point: Point;
  feed: ScheduledFeed<WeatherPeriod[]>;
  lastAskedAt: number;
}

/**
 * Every outside source of the dashboard, fetched by the server on its own schedule and served
 * from memory: reading a card never touches the network, so the dashboard answers as fast with
 * a hanging source as with none. One hub per API process; `start` on ready, `stop` on close.
 */
export class FeedHub {
  private readonly nws: NwsOptions | null;
  private readonly nyc: WeatherSlot;
  private readonly points = new Map<string, WeatherSlot>();
  readonly airQuality: ScheduledFeed<AirQualityData>;
  readonly news: ScheduledFeed<NewsData>;
  readonly transit = new Map<string, ScheduledFeed<GtfsFeedSnapshot>>();
  private running = false;

  constructor(
    private readonly config: FeedConfig,
    private readonly log: FeedLog,
  ) {
    const timeout = config.FEED_TIMEOUT_MS;
    this.nws = config.FEED_NWS_URL ? { baseUrl: config.FEED_NWS_URL, userAgent: config.FEED_NWS_USER_AGENT } : null;
    this.nyc = this.weatherSlot(NEW_YORK_CITY);
    const airNow = config.FEED_AIRNOW_URL && config.FEED_AIRNOW_API_KEY
      ? { baseUrl: config.FEED_AIRNOW_URL, apiKey: config.FEED_AIRNOW_API_KEY, zip: config.FEED_AIRNOW_ZIP, distanceMiles: 25 }
      : null;
    this.airQuality = new ScheduledFeed('airQuality', airNow ? (signal) => airNowCurrent(airNow, signal) : null, config.FEED_AIRNOW_REFRESH_SECONDS * 1000, timeout, log);
    const newsUrl = config.FEED_NEWS_URL;
    this.news = new ScheduledFeed('news', newsUrl ? (signal) => newsFeed(newsUrl, signal) : null, config.FEED_NEWS_REFRESH_SECONDS * 1000, timeout, log);
    // Only the feeds of the stops in the table are fetched (at most a handful).
    const mta = config.FEED_MTA_URL ? { baseUrl: config.FEED_MTA_URL, apiKey: config.FEED_MTA_API_KEY } : null;
    for (const feedId of new Set(TRANSIT_STOPS.map((s) => s.feedId))) {
      const path = MTA_FEEDS[feedId]!;
      this.transit.set(feedId, new ScheduledFeed(`transit:${feedId}`, mta ? (signal) => mtaFeed(mta, path, signal) : null, config.FEED_MTA_REFRESH_SECONDS * 1000, timeout, log));
    }
  }

  private weatherSlot(point: Point): WeatherSlot {
    const nws = this.nws;
    let forecastUrl: string | null = null;
    const fetcher = nws
      ? async (signal: AbortSignal) => {
          // The point's forecast URL does not change; it is asked again only after a failure.
          forecastUrl ??= await nwsForecastUrl(nws, point, signal);
          try {
            return await nwsForecast(nws, forecastUrl, signal);
          } catch (error) {
            forecastUrl = null;
            throw error;
          }
        }
      : null;
    return { point, feed: new ScheduledFeed(`weather:${keyOf(point)}`, fetcher, this.config.FEED_WEATHER_REFRESH_SECONDS * 1000, this.config.FEED_TIMEOUT_MS, this.log), lastAskedAt: Date.now() };
  }

  private all(): ScheduledFeed<unknown>[] {
    return [this.nyc.feed, ...[...this.points.values()].map((s) => s.feed), this.airQuality, this.news, ...this.transit.values()] as ScheduledFeed<unknown>[];
  }

  start(): void {
    this.running = true;
    for (const feed of this.all()) feed.start();
  }

  stop(): void {
    this.running = false;
    for (const feed of this.all()) feed.stop();
  }

  /** Waits for every feed's current fetch (tests and the first fill); never rejects. */
  async refreshAll(): Promise<void> {
    await Promise.all(this.all().map((f) => f.refresh()));
  }

  /**
   * The weather for a browser's rounded point, kept on the schedule from its first ask; until
   * that point has a forecast (or without a point) New York City's (spec section 8).
   */
  weather(browserPoint: Point | null, now = Date.now()): FeedCard<WeatherData> {
    const nycCard = this.nyc.feed.card(now, (periods): WeatherData => ({ place: 'newYorkCity', point: NEW_YORK_CITY, periods }));
    if (!browserPoint || !this.nws || this.config.FEED_WEATHER_MAX_POINTS === 0) return nycCard;
    const point = { lat: roundCoordinate(browserPoint.lat), lon: roundCoordinate(browserPoint.lon) };
    if (point.lat === roundCoordinate(NEW_YORK_CITY.lat) && point.lon === roundCoordinate(NEW_YORK_CITY.lon)) return nycCard;
    this.dropIdlePoints(now);
    const key = keyOf(point);
    let slot = this.points.get(key);
    if (!slot) {
      // A full table takes no new point (no churn a caller could drive): New York City's until one
      // falls idle. The sources are asked about a bounded set of points whoever calls.
      if (this.points.size >= this.config.FEED_WEATHER_MAX_POINTS) return nycCard;
      slot = this.weatherSlot(point);
      this.points.set(key, slot);
      if (this.running) slot.feed.start();
    }
    slot.lastAskedAt = now;
    if (!slot.feed.hasValue) return nycCard;
    const mine = slot.point;
    return slot.feed.card(now, (periods): WeatherData => ({ place: 'yourLocation', point: mine, periods }));
  }

  /** How many browser points are kept (besides New York City's). */
  get weatherPointCount(): number {
    return this.points.size;
  }

  private dropIdlePoints(now: number): void {
    for (const [key, slot] of this.points) {
      if (now - slot.lastAskedAt > POINT_IDLE_MS) {
        slot.feed.stop();
        this.points.delete(key);
      }
    }
  }

  /** Next arrivals at one stop of the table; null when the feed or the stop is not one of ours. */
  arrivals(feedId: string, stopId: string, now = Date.now()): FeedCard<TransitData> | 'unknownFeed' | 'unknownStop' {
    const feed = this.transit.get(feedId);
    if (!feed) return Object.hasOwn(MTA_FEEDS, feedId) ? 'unknownStop' : 'unknownFeed';
    const stop = findStop(feedId, stopId);
    if (!stop) return 'unknownStop';
    return this.transitCard(stop, now);
  }

  private transitCard(stop: TransitStop, now: number): FeedCard<TransitData> {
    return this.transit.get(stop.feedId)!.card(now, (snapshot) => ({ stop, arrivals: arrivalsAt(snapshot, stop.stopId, new Date(now)) }));
  }

  /** The dashboard's four cards, from memory only. `building`: the household's building, if its place is known. */
  dashboard(options: { point: Point | null; building: Point | null }, now = Date.now()): DashboardFeeds {
    return {
      weather: this.weather(options.point, now),
      airQuality: this.airQuality.card(now),
      transit: this.transitCard(nearestStop(options.building ?? NEW_YORK_CITY), now),
      news: this.news.card(now),
    };
  }
}
