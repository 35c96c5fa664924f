import { z } from 'zod';
import type { AirQualityData } from '../../domain/feeds';
import { FeedError, getJson } from './http';

/**
 * AirNow current observations by ZIP code (airnowapi.org):
 * GET /aq/observation/zipCode/current/?format=application/json&zipCode=…&distance=…&API_KEY=…
 * answers one entry per pollutant observed at the nearest reporting area.
 */
const Observation = z.object({
  DateObserved: z.string(),
  HourObserved: z.number().int(),
  LocalTimeZone: z.string().optional(),
  ReportingArea: z.string(),
  ParameterName: z.string(),
  AQI: z.number(),
  Category: z.object({ Number: z.number().int().min(1).max(7), Name: z.string() }),
});

export interface AirNowOptions {
  baseUrl: string;
  apiKey: string;
  zip: string;
  distanceMiles: number;
}

export async function airNowCurrent(o: AirNowOptions, signal: AbortSignal): Promise<AirQualityData> {
  const query = new URLSearchParams({ format: 'application/json', zipCode: o.zip, distance: String(o.distanceMiles), API_KEY: o.apiKey });
  const body = await getJson(`${o.baseUrl.replace(/\/$/, '')}/aq/observation/zipCode/current/?${query}`, signal);
  const parsed = z.array(Observation).min(1).safeParse(body);
  if (!parsed.success) throw new FeedError(Array.isArray(body) && body.length === 0 ? 'no observation for this ZIP code' : 'malformed observation');
  const first = parsed.data[0]!;
  return {
    reportingArea: first.ReportingArea,
    observed: { date: first.DateObserved.trim(), hour: first.HourObserved, timeZone: first.LocalTimeZone ?? '' },
    readings: parsed.data.map((r) => ({ parameter: r.ParameterName, aqi: r.AQI, category: r.Category.Number })),
  };
}
