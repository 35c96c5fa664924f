import { z } from 'zod';
import type { WeatherPeriod } from '../../domain/feeds';
import { FeedError, getJson } from './http';

/**
 * US National Weather Service API (api.weather.gov): GET /points/{lat},{lon} names the forecast
 * of the grid square holding the point (`properties.forecast`); that URL answers the forecast's
 * periods. The NWS asks every caller for a User-Agent naming the application and a contact.
 */
const Points = z.object({ properties: z.object({ forecast: z.string().url() }) });
const Forecast = z.object({
  properties: z.object({
    periods: z
      .array(
        z.object({
          startTime: z.string(),
          isDaytime: z.boolean(),
          temperature: z.number(),
          temperatureUnit: z.string(),
          windSpeed: z.string().nullish(),
          shortForecast: z.string(),
        }),
      )
      .min(1),
  }),
});

export interface NwsOptions {
  baseUrl: string;
  userAgent: string;
}

const headers = (o: NwsOptions) => ({ 'user-agent': o.userAgent, accept: 'application/geo+json' });

export async function nwsForecastUrl(o: NwsOptions, point: { lat: number; lon: number }, signal: AbortSignal): Promise<string> {
  const url = `${o.baseUrl.replace(/\/$/, '')}/points/${point.lat.toFixed(4)},${point.lon.toFixed(4)}`;
  const parsed = Points.safeParse(await getJson(url, signal, headers(o)));
  if (!parsed.success) throw new FeedError('points answer without a forecast URL');
  return parsed.data.properties.forecast;
}

export async function nwsForecast(o: NwsOptions, forecastUrl: string, signal: AbortSignal): Promise<WeatherPeriod[]> {
  const parsed = Forecast.safeParse(await getJson(forecastUrl, signal, headers(o)));
  if (!parsed.success) throw new FeedError('forecast answer without periods');
  return parsed.data.properties.periods.slice(0, 4).map((p) => ({
    startTime: p.startTime,
    isDaytime: p.isDaytime,
    temperature: p.temperature,
    temperatureUnit: p.temperatureUnit,
    windSpeed: p.windSpeed ?? '',
    shortForecast: p.shortForecast,
  }));
}
