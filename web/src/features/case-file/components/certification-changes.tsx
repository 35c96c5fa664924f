import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney } from '../../../lib/format';
import type { CaseFileAsset, CaseFileIncome, CaseFileMember, CertificationChanges, FactChange } from '../../../lib/domain';

/** Recertification: what changed since the last approved certification, highlighted. */
export function CertificationChangesSection({ changes }: { changes: CertificationChanges | null }) {
  const { t } = useTranslation(['caseFile', 'lookups']);
  if (!changes) return <p data-testid="certification-changes">{t('caseFile:changes.noneBefore')}</p>;
  const member = (m: CaseFileMember) => `${t(`lookups:relationship.${m.relationship}`, { defaultValue: m.relationship })}${m.student ? `, ${t('caseFile:members.student')}` : ''}${m.disability ? `, ${t('caseFile:members.disability')}` : ''}`;
  const income = (i: CaseFileIncome) => t('caseFile:changes.incomeValue', { annual: formatMoney(i.annual), amount: formatMoney(i.amount), frequency: t(`lookups:payFrequency.${i.frequency}`, { defaultValue: i.frequency }) });
  const asset = (a: CaseFileAsset) => t('caseFile:changes.assetValue', { value: formatMoney(a.value), income: formatMoney(a.income) });
  const line = <T,>(c: FactChange<T>, show: (v: T) => string) => ({
    key: `${c.change}-${c.label}`,
    text: t(`caseFile:changes.${c.change}`, { label: c.label, before: c.before ? show(c.before) : '', after: c.after ? show(c.after) : '' }),
  });
  const lines = [
    ...changes.members.map((c) => line(c, member)),
    ...changes.incomes.map((c) => line(c, income)),
    ...changes.assets.map((c) => line(c, asset)),
  ];
  const total = changes.totalIncome;
  return (
    <div className="case-file-changes" data-testid="certification-changes">
      <h3>{t('caseFile:changes.title', { date: formatDate(changes.since) })}</h3>
      {lines.length === 0 ? <p>{t('caseFile:changes.none')}</p> : (
        <ul>
          {lines.map((l) => (
            <li key={l.key}><mark>{l.text}</mark></li>
          ))}
        </ul>
      )}
      <p>
        {total.before === total.after
          ? t('caseFile:changes.totalSame', { total: formatMoney(total.after) })
          : <mark>{t('caseFile:changes.total', { before: formatMoney(total.before), after: formatMoney(total.after) })}</mark>}
      </p>
    </div>
  );
}
