import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpportunityDetail } from '../../../lib/domain';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { formatDate, formatMoney, formatPercent } from '../../../lib/format';
import { LotteryCountdown } from './lottery-countdown';
import { LANGUAGE_NAMES } from '../../../i18n';
import { LANGUAGES } from '../../../lib/domain-core';

interface OpportunityDetailViewProps {
  opportunity: OpportunityDetail;
  /** The "how to apply" action: a sign-in link on the public page, the Apply button when signed in. */
  applySlot: ReactNode;
}

/** Spec section 2: building, amenities, units, requirements (AMI %, layout, rent), eligible income, countdown. */
export function OpportunityDetailView({ opportunity, applySlot }: OpportunityDetailViewProps) {
  const { t } = useTranslation('opportunities');
  return (
    <article className="opportunity-detail">
      <header className="detail-header">
        <h1>{opportunity.name}</h1>
        <p className="card-meta">
          <span className="badge badge-kind">{t(`types.${opportunity.kind}`)}</span>
          <LotteryCountdown daysRemaining={opportunity.daysRemaining} />
        </p>
      </header>

      <section aria-labelledby="building-heading" className="panel">
        <h2 id="building-heading">{t('detail.building')}</h2>
        <dl className="facts">
          <dt>{t('detail.address')}</dt>
          <dd>{opportunity.address}</dd>
          <dt>{t('detail.type')}</dt>
          <dd>{t(`types.${opportunity.kind}`)}</dd>
          <dt>{t('detail.lotteryEnds')}</dt>
          <dd>{formatDate(opportunity.lotteryEndDate)}</dd>
        </dl>
        {opportunity.description ? <p className="description">{opportunity.description}</p> : null}
        {opportunity.lotteryDrawn ? (
          <p>
            <Link to={paths.public.lotteryResults.getHref(opportunity.id)}>{t('detail.lotteryResults')}</Link>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="amenities-heading" className="panel">
        <h2 id="amenities-heading">{t('detail.amenities')}</h2>
        {opportunity.amenities.length ? (
          <ul className="tag-list">
            {opportunity.amenities.map((amenity) => (
              <li key={amenity}>{amenity}</li>
            ))}
          </ul>
        ) : (
          <p>{t('detail.noAmenities')}</p>
        )}
      </section>

      <section aria-labelledby="units-heading" className="panel">
        <h2 id="units-heading">{t('detail.units')}</h2>
        {opportunity.units.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('detail.units')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('detail.unitNumber')}</th>
                  <th scope="col">{t('detail.bedroomType')}</th>
                  <th scope="col">{t('detail.unitAddress')}</th>
                  <th scope="col">{t('detail.accessibility')}</th>
                  <th scope="col">{t('detail.monthlyRent')}</th>
                  <th scope="col">{t('detail.amiPercent')}</th>
                </tr>
              </thead>
              <tbody>
                {opportunity.units.map((unit) => (
                  <tr key={unit.id}>
                    <th scope="row">{unit.unitNumber}</th>
                    <td>{unit.bedroomType}</td>
                    <td>{unit.address}</td>
                    <td>{unit.accessibility.length ? unit.accessibility.join(', ') : t('detail.none')}</td>
                    <td>{formatMoney(unit.monthlyRent)}</td>
                    <td>{formatPercent(unit.amiPercent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t('detail.noUnits')}</p>
        )}
      </section>

      <section aria-labelledby="requirements-heading" className="panel">
        <h2 id="requirements-heading">{t('detail.requirements')}</h2>
        <p>{t('detail.requirementsIntro')}</p>
        {opportunity.requirements.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('detail.requirements')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('detail.amiPercent')}</th>
                  <th scope="col">{t('detail.layout')}</th>
                  <th scope="col">{t('detail.monthlyRent')}</th>
                </tr>
              </thead>
              <tbody>
                {opportunity.requirements.map((row) => (
                  <tr key={`${row.amiPercent}-${row.layout}`}>
                    <td>{formatPercent(row.amiPercent)}</td>
                    <td>{row.layout}</td>
                    <td>{formatMoney(row.monthlyRent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t('detail.noRequirements')}</p>
        )}
      </section>

      <section aria-labelledby="income-heading" className="panel">
        <h2 id="income-heading">{t('detail.eligibleIncome')}</h2>
        {opportunity.incomeRanges.length ? (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('detail.eligibleIncome')}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('detail.householdSize')}</th>
                  <th scope="col">{t('detail.minIncome')}</th>
                  <th scope="col">{t('detail.maxIncome')}</th>
                </tr>
              </thead>
              <tbody>
                {opportunity.incomeRanges.map((range) => (
                  <tr key={range.householdSize}>
                    <td>{range.householdSize}</td>
                    <td>{formatMoney(range.min)}</td>
                    <td>{formatMoney(range.max)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>{t('detail.noIncomeRanges')}</p>
        )}
      </section>

      <section aria-labelledby="apply-heading" className="panel panel-highlight">
        <h2 id="apply-heading">{t('detail.howToApply')}</h2>
        <p>{t('detail.applyIntro')}</p>
        {opportunity.daysRemaining < 0 ? <p className="notice">{t('apply.closed')}</p> : applySlot}
        <h3>{t('detail.paperTitle')}</h3>
        <p>{t('detail.paperIntro')}</p>
        <ul className="paper-links">
          {LANGUAGES.map((language) => (
            <li key={language}>
              <a href={`/api/Opportunity/${encodeURIComponent(opportunity.id)}/paper-application/${language}`} hrefLang={language} lang={language} target="_blank" rel="noopener">
                {t('detail.paperIn', { language: LANGUAGE_NAMES[language] })}
              </a>
            </li>
          ))}
        </ul>
        {opportunity.hasPaperApplication ? (
          <p>
            <a href={`/api/Opportunity/${encodeURIComponent(opportunity.id)}/paper-application`} target="_blank" rel="noopener">
              {t('detail.paperApplication')}
            </a>
          </p>
        ) : null}
        <h3>{t('detail.byMailTitle')}</h3>
        {opportunity.mailingAddress ? (
          <>
            <p>{t('detail.byMailIntro')}</p>
            <address className="mailing-address">{opportunity.mailingAddress}</address>
          </>
        ) : (
          <p>{t('detail.noMail')}</p>
        )}
      </section>
    </article>
  );
}
