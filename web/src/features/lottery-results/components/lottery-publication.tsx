import { useTranslation } from 'react-i18next';
import type { LotteryPublication } from '../../../lib/domain';
import { localeTag } from '../../../i18n';
import { groupName } from './group-name';

/** A hash or seed: long and unbreakable, so it wraps anywhere and keeps its digits monospaced. */
function Hex({ value }: { value: string | null }) {
  return <code className="hex-value">{value ?? '—'}</code>;
}

/**
 * What the draw published: the seed's hash (committed when applications opened),
 * the revealed seed, the public value, the algorithm, the hashes of the list and of the result, and
 * whether recomputing the draw from them gives the stored ranks.
 */
export function LotteryPublicationView({ lottery }: { lottery: LotteryPublication }) {
  const { t } = useTranslation('lottery');
  const count = (n: number) => new Intl.NumberFormat(localeTag()).format(n);
  const dateTime = (iso: string) => new Intl.DateTimeFormat(localeTag(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const share = (n: number) => new Intl.NumberFormat(localeTag(), { style: 'percent', maximumFractionDigits: 2 }).format(n);
  return (
    <section aria-labelledby="draw-heading" className="panel">
      <h2 id="draw-heading">{t('draw.title')}</h2>
      {lottery.drawn ? (
        <p role="status" className={lottery.verified ? 'verified-yes' : 'verified-no'}>
          <strong>{lottery.verified ? t('draw.verified') : t('draw.notVerified')}</strong>
        </p>
      ) : (
        <p className="notice" role="status">
          {t('draw.notDrawn')}
        </p>
      )}
      {/* Publications from before freezes existed have no freeze fields. */}
      {lottery.frozen ? (
        <p data-testid="lottery-frozen">
          {t('draw.frozen', { date: dateTime(lottery.frozen.frozenAt), count: count(lottery.frozen.entries) })}
          {lottery.drawn && lottery.listHash ? ` ${lottery.listHash === lottery.frozen.listHash ? t('draw.frozenMatches') : t('draw.frozenDiffers')}` : null}
        </p>
      ) : lottery.listFreezesAt && !lottery.drawn ? (
        <p>{t('draw.notFrozen', { date: dateTime(lottery.listFreezesAt) })}</p>
      ) : null}
      <dl className="facts">
        <dt>{t('draw.seedHash')}</dt>
        <dd>
          <Hex value={lottery.seedHash} />
        </dd>
        {lottery.frozen ? (
          <>
            <dt>{t('draw.frozenEntries')}</dt>
            <dd>{count(lottery.frozen.entries)}</dd>
            <dt>{t('draw.frozenListHash')}</dt>
            <dd>
              <Hex value={lottery.frozen.listHash} />
            </dd>
          </>
        ) : null}
        {lottery.drawn ? (
          <>
            <dt>{t('draw.drawnAt')}</dt>
            <dd>{lottery.drawnAt ? dateTime(lottery.drawnAt) : '—'}</dd>
            <dt>{t('draw.seed')}</dt>
            <dd>
              <Hex value={lottery.seed} />
            </dd>
            <dt>{t('draw.publicValue')}</dt>
            <dd>
              <code>{lottery.publicValue}</code>
            </dd>
            <dt>{t('draw.algorithm')}</dt>
            <dd>
              <code>{lottery.algorithm}</code>
            </dd>
            <dt>{t('draw.entries')}</dt>
            <dd>{lottery.entries === null ? '—' : count(lottery.entries)}</dd>
            <dt>{t('draw.listHash')}</dt>
            <dd>
              <Hex value={lottery.listHash} />
            </dd>
            <dt>{t('draw.resultHash')}</dt>
            <dd>
              <Hex value={lottery.resultHash} />
            </dd>
          </>
        ) : null}
        <dt>{t('draw.units')}</dt>
        <dd>{count(lottery.units)}</dd>
        <dt>{t('draw.setAsides')}</dt>
        <dd>{lottery.setAsides.length ? lottery.setAsides.map((s) => t('draw.setAside', { group: groupName(t, s.group), share: share(s.share) })).join('; ') : t('draw.none')}</dd>
      </dl>
      <p className="muted">{t('draw.howToCheck', { command: `npm run lottery:verify -- ${lottery.opportunityId}` })}</p>
    </section>
  );
}
