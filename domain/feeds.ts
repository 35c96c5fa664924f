/**
 * The dashboard's outside world: weather, air quality, transit and news for New York.
 * The server fetches each feed on a schedule and keeps the last answer with its time
 * (infra/feeds/); the dashboard serves what it has, never waiting on a source.
 */

/** Spec section 8: without the browser's location the weather is New York City's (City Hall). */
export const NEW_YORK_CITY = { lat: 40.7128, lon: -74.006 } as const;

/**
 * The browser sends its position rounded to this many decimals (0.1 degree, about 11 km): the
 * server keeps one forecast per rounded point, so the weather is still not fetched per visitor,
 * and no precise location leaves the browser.
 */
export const WEATHER_POINT_DECIMALS = 1;

export function roundCoordinate(value: number): number {
  const factor = 10 ** WEATHER_POINT_DECIMALS;
  return Math.round(value * factor) / factor;
}

/** fresh: fetched on schedule; stale: the last fetch failed or is late, the answer shown is older; unavailable: nothing to show. */
export type FeedState = 'fresh' | 'stale' | 'unavailable';
/** Why a card has nothing: no URL configured (the embedded default), not fetched yet, or every fetch failed. */
export type FeedUnavailableReason = 'notConfigured' | 'notYetFetched' | 'failed';

export interface FeedCard<T> {
  state: FeedState;
  /** When the answer shown was fetched (ISO), and its age in seconds when served. */
  fetchedAt: string | null;
  ageSeconds: number | null;
  reason: FeedUnavailableReason | null;
  data: T | null;
}

export interface WeatherPeriod {
  startTime: string;
  isDaytime: boolean;
  temperature: number;
  temperatureUnit: string;
  /** The National Weather Service's own words (English). */
  shortForecast: string;
  windSpeed: string;
}

export interface WeatherData {
  /** Whose weather this is: the browser's rounded point, or New York City (spec section 8). */
  place: 'yourLocation' | 'newYorkCity';
  point: { lat: number; lon: number };
  periods: WeatherPeriod[];
}

export interface AirQualityReading {
  /** AirNow's pollutant name: O3, PM2.5, PM10... */
  parameter: string;
  aqi: number;
  /** AirNow category number, 1 (good) to 6 (hazardous); the web app names it in the user's language. */
  category: number;
}

export interface AirQualityData {
  reportingArea: string;
  /** The observation's local date and hour as AirNow gives them (e.g. 2026-11-26, 14, EST). */
  observed: { date: string; hour: number; timeZone: string };
  readings: AirQualityReading[];
}

export interface TransitArrival {
  routeId: string;
  /** N or S: the direction suffix of the MTA stop id (uptown / downtown). */
  direction: 'N' | 'S' | '';
  arrivalTime: string;
  minutes: number;
}

export interface TransitStop {
  /** MTA GTFS parent stop id (e.g. 117) and its feed (e.g. 1234567). */
  stopId: string;
  feedId: string;
  name: string;
  lat: number;
  lon: number;
}

export interface TransitData {
  stop: TransitStop;
  arrivals: TransitArrival[];
}

export interface NewsItem {
  title: string;
  url: string | null;
  publishedAt: string | null;
}

export interface NewsData {
  title: string;
  items: NewsItem[];
}

export interface DashboardFeeds {
  weather: FeedCard<WeatherData>;
  airQuality: FeedCard<AirQualityData>;
  transit: FeedCard<TransitData>;
  news: FeedCard<NewsData>;
}

export const FEED_NAMES = ['weather', 'airQuality', 'transit', 'news'] as const satisfies readonly (keyof DashboardFeeds)[];
