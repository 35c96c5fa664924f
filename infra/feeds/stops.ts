import type { TransitStop } from '../../domain/feeds';

/**
 * MTA subway GTFS-realtime feeds by the id used in `/api/GTFSRealtimeFeed/{feed}/{stop}`, and the
 * path of each under FEED_MTA_URL (the MTA's feed names, e.g. `nyct%2Fgtfs-ace`).
 */
export const MTA_FEEDS: Record<string, string> = {
  '1234567': 'nyct%2Fgtfs',
  ace: 'nyct%2Fgtfs-ace',
  bdfm: 'nyct%2Fgtfs-bdfm',
  g: 'nyct%2Fgtfs-g',
  jz: 'nyct%2Fgtfs-jz',
  nqrw: 'nyct%2Fgtfs-nqrw',
  l: 'nyct%2Fgtfs-l',
  si: 'nyct%2Fgtfs-si',
};

/**
 * The stops the portal shows arrivals for: a small static table (a realtime feed carries stop ids,
 * not places). Parent-station ids and positions follow the MTA's static subway GTFS (stops.txt);
 * realtime stop ids add N or S for the direction. A building's nearest stop is picked from this
 * table, so a stop added here (with its feed) is fetched on the schedule and served at once.
 */
export const TRANSIT_STOPS: readonly TransitStop[] = [
  { feedId: '1234567', stopId: '101', name: 'Van Cortlandt Park-242 St', lat: 40.889248, lon: -73.898583 },
  { feedId: '1234567', stopId: '117', name: '116 St-Columbia University', lat: 40.807722, lon: -73.96411 },
  { feedId: '1234567', stopId: '120', name: '96 St', lat: 40.793919, lon: -73.972323 },
  { feedId: '1234567', stopId: '127', name: 'Times Sq-42 St', lat: 40.75529, lon: -73.987495 },
  { feedId: '1234567', stopId: '137', name: 'Chambers St', lat: 40.715478, lon: -74.009266 },
  { feedId: '1234567', stopId: '142', name: 'South Ferry', lat: 40.702068, lon: -74.013664 },
  { feedId: '1234567', stopId: '222', name: '149 St-Grand Concourse', lat: 40.81841, lon: -73.926718 },
  { feedId: '1234567', stopId: '235', name: 'Atlantic Av-Barclays Ctr', lat: 40.684359, lon: -73.977666 },
  { feedId: '1234567', stopId: '504', name: 'Pelham Pkwy', lat: 40.857192, lon: -73.867615 },
  { feedId: '1234567', stopId: '631', name: 'Grand Central-42 St', lat: 40.751776, lon: -73.976848 },
  { feedId: '1234567', stopId: '640', name: 'Brooklyn Bridge-City Hall', lat: 40.713065, lon: -74.004131 },
  { feedId: 'ace', stopId: 'A15', name: '125 St', lat: 40.811109, lon: -73.952343 },
  { feedId: 'ace', stopId: 'A24', name: '59 St-Columbus Circle', lat: 40.768296, lon: -73.981736 },
  { feedId: 'ace', stopId: 'A27', name: '42 St-Port Authority Bus Terminal', lat: 40.757308, lon: -73.989735 },
  { feedId: 'ace', stopId: 'A32', name: 'W 4 St-Wash Sq', lat: 40.732338, lon: -74.000495 },
  { feedId: 'bdfm', stopId: 'F14', name: '2 Av', lat: 40.723402, lon: -73.989938 },
  { feedId: 'g', stopId: 'G22', name: 'Court Sq', lat: 40.746554, lon: -73.943832 },
  { feedId: 'jz', stopId: 'M16', name: 'Marcy Av', lat: 40.708359, lon: -73.957757 },
  { feedId: 'l', stopId: 'L03', name: 'Union Sq-14 St', lat: 40.734789, lon: -73.99073 },
  { feedId: 'l', stopId: 'L06', name: '1 Av', lat: 40.730953, lon: -73.981628 },
  { feedId: 'l', stopId: 'L08', name: 'Bedford Av', lat: 40.717304, lon: -73.956872 },
  { feedId: 'nqrw', stopId: 'R16', name: 'Times Sq-42 St', lat: 40.754672, lon: -73.986754 },
  { feedId: 'nqrw', stopId: 'R20', name: '14 St-Union Sq', lat: 40.735736, lon: -73.990568 },
  { feedId: 'si', stopId: 'S31', name: 'St George', lat: 40.643748, lon: -74.073643 },
];

/** Great-circle distance in metres. */
export function distanceMetres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/** The table's stop nearest a place (a building). */
export function nearestStop(place: { lat: number; lon: number }, stops: readonly TransitStop[] = TRANSIT_STOPS): TransitStop {
  let best = stops[0]!;
  for (const stop of stops) if (distanceMetres(place, stop) < distanceMetres(place, best)) best = stop;
  return best;
}

export function findStop(feedId: string, stopId: string): TransitStop | undefined {
  return TRANSIT_STOPS.find((s) => s.feedId === feedId && s.stopId === stopId);
}
