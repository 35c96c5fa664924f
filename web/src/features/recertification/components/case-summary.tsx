import { useTranslation } from 'react-i18next';
import type { RecertificationCase } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';

/**
 * The recertification case of spec section 3, as a definition list. The next step is written to the
 * tenant, so the manager's page leaves it out (its whose-move sentence says what the case waits for).
 */
export function CaseSummary({ c, viewer = 'person' }: { c: RecertificationCase; viewer?: 'person' | 'manager' }) {
  const { t } = useTranslation('recertification');
  const date = formatDate;
  const rows: [string, string][] = [
    [t('case.address'), c.address],
    [t('case.unitNumber'), c.unitNumber],
    [t('case.bedrooms'), c.bedrooms],
    [t('case.householdSize'), String(c.householdSize)],
    [t('case.period'), `${date(c.period.from)} – ${date(c.period.to)}`],
    [t('case.kind'), t(`kind.${c.kind}`)],
    [t('case.status'), t(`status.${c.status}`)],
    [t('case.stage'), t(`stage.${c.stage}`)],
    [t('case.daysRemaining'), String(c.daysRemaining)],
    [t('case.lastUpdated'), date(c.lastUpdated)],
    ...(viewer === 'person' ? [[t('case.nextStep'), t(`nextStep.${c.nextStep}` as 'nextStep.none')] as [string, string]] : []),
    [t('case.incomeBand'), c.incomeBand ? t('band.value', { band: t(`band.${c.incomeBand.band}`), percent: c.incomeBand.amiPercent }) : t('band.unknown')],
  ];
  return (
    <dl className="info-list" data-testid="recertification-case">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
