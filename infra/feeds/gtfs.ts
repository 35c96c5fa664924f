import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { TransitArrival } from '../../domain/feeds';
import { FeedError, getBody } from './http';

const { transit_realtime } = GtfsRealtimeBindings;

/** One predicted arrival at a realtime stop id (parent id plus N or S), in epoch seconds. */
export interface StopTimePrediction {
  stopId: string;
  routeId: string;
  time: number;
}

export interface GtfsFeedSnapshot {
  /** The feed header's timestamp (epoch seconds), 0 when absent. */
  timestamp: number;
  predictions: StopTimePrediction[];
}

const seconds = (value: number | { toNumber(): number } | null | undefined): number =>
  value == null ? 0 : typeof value === 'number' ? value : value.toNumber();

/** Decodes a GTFS-realtime FeedMessage (protobuf) with the maintained bindings; keeps the trip updates' stop times. */
export function decodeFeed(body: Uint8Array): GtfsFeedSnapshot {
  let message;
  try {
    message = transit_realtime.FeedMessage.decode(body);
  } catch {
    throw new FeedError('malformed GTFS-realtime message');
  }
  const predictions: StopTimePrediction[] = [];
  for (const entity of message.entity) {
    const update = entity.tripUpdate;
    if (!update) continue;
    const routeId = update.trip.routeId ?? '';
    for (const stu of update.stopTimeUpdate ?? []) {
      const time = seconds(stu.arrival?.time) || seconds(stu.departure?.time);
      if (stu.stopId && time > 0) predictions.push({ stopId: stu.stopId, routeId, time });
    }
  }
  return { timestamp: seconds(message.header.timestamp), predictions };
}

export interface MtaOptions {
  baseUrl: string;
  apiKey?: string;
}

export async function mtaFeed(o: MtaOptions, feedPath: string, signal: AbortSignal): Promise<GtfsFeedSnapshot> {
  const body = await getBody(`${o.baseUrl.replace(/\/$/, '')}/${feedPath}`, signal, { accept: 'application/x-protobuf', ...(o.apiKey ? { 'x-api-key': o.apiKey } : {}) });
  return decodeFeed(body);
}

/** The next arrivals at a parent stop (both directions), soonest first, from `now` on. */
export function arrivalsAt(snapshot: GtfsFeedSnapshot, parentStopId: string, now: Date, limit = 6): TransitArrival[] {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return snapshot.predictions
    .filter((p) => (p.stopId === parentStopId || p.stopId === `${parentStopId}N` || p.stopId === `${parentStopId}S`) && p.time >= nowSeconds)
    .sort((a, b) => a.time - b.time)
    .slice(0, limit)
    .map((p) => {
      const suffix = p.stopId.slice(parentStopId.length);
      return {
        routeId: p.routeId,
        direction: suffix === 'N' || suffix === 'S' ? suffix : '',
        arrivalTime: new Date(p.time * 1000).toISOString(),
        minutes: Math.max(0, Math.round((p.time - nowSeconds) / 60)),
      };
    });
}
