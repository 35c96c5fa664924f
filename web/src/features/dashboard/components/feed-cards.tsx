import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localeTag } from '../../../i18n';
import type { AirQualityData, DashboardFeeds, FeedCard, NewsData, TransitData, WeatherData } from '../../../lib/domain';
import type { WeatherPointState } from '../hooks/use-weather-point';

/** "5 minutes ago" in the reader's language. */
function ago(seconds: number): string {
  const rtf = new Intl.RelativeTimeFormat(localeTag(), { numeric: 'auto' });
  if (seconds < 60) return rtf.format(-Math.max(0, Math.round(seconds)), 'second');
  if (seconds < 3600) return rtf.format(-Math.round(seconds / 60), 'minute');
  if (seconds < 86_400) return rtf.format(-Math.round(seconds / 3600), 'hour');
  return rtf.format(-Math.round(seconds / 86_400), 'day');
}

/** One card: its title, then what the server last fetched, or plainly that the feed is unavailable. */
function Card<T>({ id, title, card, source, children }: { id: string; title: string; card: FeedCard<T>; source: string; children: (data: T) => ReactNode }) {
  const { t } = useTranslation('dashboard');
  return (
    <section className="panel feed-card" aria-labelledby={`feed-${id}`} data-testid={`feed-${id}`} data-state={card.state}>
      <h3 id={`feed-${id}`}>{title}</h3>
      {card.state === 'unavailable' || card.data === null ? (
        <p className="notice" data-testid={`feed-${id}-unavailable`}>
          {t(`feeds.unavailable.${card.reason ?? 'failed'}`)}
        </p>
      ) : (
        <>
          {card.state === 'stale' ? (
            <p className="notice" data-testid={`feed-${id}-stale`}>
              {t('feeds.stale', { when: ago(card.ageSeconds ?? 0) })}
            </p>
          ) : null}
          {children(card.data)}
          <p className="feed-source">
            {source}
            {card.state === 'fresh' && card.ageSeconds !== null ? ` · ${t('feeds.updated', { when: ago(card.ageSeconds) })}` : ''}
          </p>
        </>
      )}
    </section>
  );
}

function Weather({ data, location }: { data: WeatherData; location: WeatherPointState }) {
  const { t } = useTranslation('dashboard');
  const when = new Intl.DateTimeFormat(localeTag(), { weekday: 'long', timeZone: 'America/New_York' });
  return (
    <>
      <p>{data.place === 'yourLocation' ? t('feeds.weather.yourLocation') : t('feeds.weather.newYorkCity')}</p>
      {/* Spec section 8: location access denied, the weather shows New York City. */}
      {location.status === 'denied' && data.place === 'newYorkCity' ? <p className="hint">{t('feeds.weather.locationDenied')}</p> : null}
      <ul className="feed-list">
        {data.periods.map((p) => (
          <li key={p.startTime}>
            <strong>{t(p.isDaytime ? 'feeds.weather.day' : 'feeds.weather.night', { day: when.format(new Date(p.startTime)) })}</strong>
            {': '}
            {t('feeds.weather.temperature', { temperature: p.temperature, unit: p.temperatureUnit })}
            {', '}
            {/* The National Weather Service's own words, in English. */}
            <span lang="en">{p.shortForecast}</span>
            {p.windSpeed ? `, ${t('feeds.weather.wind', { speed: p.windSpeed })}` : ''}
          </li>
        ))}
      </ul>
    </>
  );
}

const POLLUTANT_KEYS: Record<string, 'ozone' | 'pm25' | 'pm10'> = { O3: 'ozone', 'PM2.5': 'pm25', PM10: 'pm10' };

function AirQuality({ data }: { data: AirQualityData }) {
  const { t } = useTranslation('dashboard');
  return (
    <>
      <p>{t('feeds.airQuality.area', { area: data.reportingArea, date: data.observed.date, hour: data.observed.hour, zone: data.observed.timeZone })}</p>
      <ul className="feed-list">
        {data.readings.map((r) => (
          <li key={r.parameter}>
            {t('feeds.airQuality.reading', {
              parameter: POLLUTANT_KEYS[r.parameter] ? t(`feeds.airQuality.pollutant.${POLLUTANT_KEYS[r.parameter]!}`) : r.parameter,
              aqi: r.aqi,
              category: t(`feeds.airQuality.category.c${Math.min(Math.max(r.category, 1), 7)}` as 'feeds.airQuality.category.c1'),
            })}
          </li>
        ))}
      </ul>
    </>
  );
}

function Transit({ data }: { data: TransitData }) {
  const { t } = useTranslation('dashboard');
  return (
    <>
      <p>{t('feeds.transit.stop', { stop: data.stop.name })}</p>
      {data.arrivals.length === 0 ? (
        <p>{t('feeds.transit.none')}</p>
      ) : (
        <ul className="feed-list">
          {data.arrivals.map((a) => (
            <li key={`${a.routeId}-${a.direction}-${a.arrivalTime}`}>
              {t(a.direction === 'N' ? 'feeds.transit.uptown' : a.direction === 'S' ? 'feeds.transit.downtown' : 'feeds.transit.train', { route: a.routeId, minutes: a.minutes })}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function News({ data }: { data: NewsData }) {
  const { t } = useTranslation('dashboard');
  if (data.items.length === 0) return <p>{t('feeds.news.none')}</p>;
  return (
    <ul className="feed-list">
      {data.items.map((item) => (
        <li key={`${item.title}-${item.publishedAt}`}>
          {item.url ? (
            <a href={item.url} target="_blank" rel="noopener noreferrer">
              {item.title}
              <span className="visually-hidden"> {t('feeds.news.opensNewTab')}</span>
            </a>
          ) : (
            item.title
          )}
        </li>
      ))}
    </ul>
  );
}

/** A card is shown for a feed the portal is connected to; one that is not (the embedded default) is left out. */
const shown = (card: FeedCard<unknown>) => card.reason !== 'notConfigured';

/**
 * Weather, air quality, transit and news for New York, as the server last fetched them. A feed the
 * portal has no source for is left out rather than shown as an error: the first thing a new resident
 * sees should not be four warnings. A connected feed that fails still says so on its card.
 */
export function FeedCards({ feeds, location }: { feeds: DashboardFeeds; location: WeatherPointState }) {
  const { t } = useTranslation('dashboard');
  if (![feeds.weather, feeds.airQuality, feeds.transit, feeds.news].some(shown)) return null;
  return (
    <section aria-labelledby="feeds-title" className="feed-cards" data-testid="feed-cards">
      <h2 id="feeds-title">{t('feeds.title')}</h2>
      <div className="feed-grid">
        {shown(feeds.weather) ? (
          <Card id="weather" title={t('feeds.weather.title')} card={feeds.weather} source={t('feeds.weather.source')}>
            {(data) => <Weather data={data} location={location} />}
          </Card>
        ) : null}
        {shown(feeds.airQuality) ? (
          <Card id="airQuality" title={t('feeds.airQuality.title')} card={feeds.airQuality} source={t('feeds.airQuality.source')}>
            {(data) => <AirQuality data={data} />}
          </Card>
        ) : null}
        {shown(feeds.transit) ? (
          <Card id="transit" title={t('feeds.transit.title')} card={feeds.transit} source={t('feeds.transit.source')}>
            {(data) => <Transit data={data} />}
          </Card>
        ) : null}
        {shown(feeds.news) ? (
          <Card id="news" title={t('feeds.news.title')} card={feeds.news} source={feeds.news.data?.title ? t('feeds.news.source', { title: feeds.news.data.title }) : ''}>
            {(data) => <News data={data} />}
          </Card>
        ) : null}
      </div>
    </section>
  );
}
