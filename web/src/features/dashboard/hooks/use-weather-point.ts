import { useEffect, useState } from 'react';
import { roundCoordinate } from '../../../lib/domain';

export type WeatherPoint = { lat: number; lon: number };
/** pending: still asking; allowed: a rounded point; denied: not allowed or not available (spec section 8: New York City). */
export type WeatherPointState = { status: 'pending' | 'denied'; point: null } | { status: 'allowed'; point: WeatherPoint };

/**
 * The browser's position for the weather card, when the user allows it. Only a rounded
 * point (0.1 degree) is sent to the server, which keeps one forecast per rounded point.
 */
export function useWeatherPoint(): WeatherPointState {
  const [state, setState] = useState<WeatherPointState>(() => (typeof navigator !== 'undefined' && navigator.geolocation ? { status: 'pending', point: null } : { status: 'denied', point: null }));
  useEffect(() => {
    if (!navigator.geolocation) return;
    let live = true;
    navigator.geolocation.getCurrentPosition(
      (position) => {
        if (live) setState({ status: 'allowed', point: { lat: roundCoordinate(position.coords.latitude), lon: roundCoordinate(position.coords.longitude) } });
      },
      () => {
        if (live) setState({ status: 'denied', point: null });
      },
      // A coarse, possibly cached position is enough for a forecast.
      { enableHighAccuracy: false, maximumAge: 3_600_000, timeout: 15_000 },
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
