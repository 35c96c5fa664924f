import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MemberView } from '../../../lib/domain';
import { FLAG_ROUTES, householdCalls, useAssets, useHouseholdMutation, useIncome, type FlaggedAssetKind } from '../api/profile';
import { AssetForm } from './asset-form';
import { IncomeForm } from './income-form';
import { SpecialIncomeForm } from './special-income-form';
import { YesNoQuestion } from './yes-no-question';
import { useFailureText, type Failure } from './failure-text';
import { formatMoney } from '../../../lib/format';
import { ReadFiguresUpload } from './extracted-figures';

export function IncomeTab({ householdId, hasIncome, members }: { householdId: string; hasIncome: boolean | null; members: MemberView[] }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const income = useIncome();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const answer = useHouseholdMutation(householdCalls.incomeQuestion);
  const remove = useHouseholdMutation(householdCalls.deleteIncome);
  const failureText = useFailureText();
  const entries = income.data ?? [];
  return (
    <div>
      <YesNoQuestion question={t('profile:income.question')} value={hasIncome} entries={entries.length} onAnswer={(a) => answer.mutate({ householdId, answer: a })} />
      <ul className="task-list">
        {entries.map((i) => (
          <li key={i.id}>
            {i.memberName}: {t(`lookups:incomeType.${i.incomeType}` as never)} — {i.amount} ({t(`lookups:payFrequency.${i.frequency}` as never)}) ·{' '}
            {t('profile:income.annual', { amount: formatMoney(i.annualAmount) })}{' '}
            <button type="button" className="button button-secondary" onClick={() => setEditing(i.id)}>{t('profile:form.edit')}</button>{' '}
            <button type="button" className="button button-secondary" onClick={() => remove.mutate(i.id)}>{t('profile:form.delete')}</button>
            {editing === i.id ? <IncomeForm members={members} entry={i} onDone={() => setEditing(null)} /> : null}
          </li>
        ))}
      </ul>
      {remove.error ? <p className="form-error" role="alert">{failureText(remove.error, 'incomeDelete')}</p> : null}
      {hasIncome !== false ? (adding ? <IncomeForm members={members} onDone={() => setAdding(false)} /> : (
        <button type="button" className="button button-primary" disabled={members.length === 0} onClick={() => setAdding(true)}>{t('profile:income.add')}</button>
      )) : null}
      {hasIncome !== false && members.length > 0 ? <ReadFiguresUpload documentType="pay_stub" members={members} /> : null}
      {members.length > 0 ? <SpecialIncomeForm members={members} /> : null}
    </div>
  );
}

/** Which failure message each per-kind question uses (spec section 8: trust or insurance ownership). */
const FLAG_FAILURE: Record<FlaggedAssetKind, Failure> = { TrustAssets: 'trustOwnership', LifeInsuranceAssets: 'insuranceOwnership', EBTCards: 'assetOwnership' };

/** One per-kind question (does anyone have a trust, life insurance, an EBT card?): NO deletes that kind's entries, after asking. */
function AssetKindQuestion({ kind, value, entries }: { kind: FlaggedAssetKind; value: boolean | null; entries: number }) {
  const { t } = useTranslation('profile');
  const answer = useHouseholdMutation(householdCalls.assetKindQuestion);
  const failureText = useFailureText();
  return (
    <>
      <YesNoQuestion question={t(`assets.kindQuestion.${kind}`)} value={value} entries={entries} onAnswer={(hasAny) => answer.mutate({ kind, hasAny })} />
      {answer.error ? <p className="form-error" role="alert">{failureText(answer.error, FLAG_FAILURE[kind])}</p> : null}
    </>
  );
}

export function AssetsTab({ hasAssets, assetFlags }: { hasAssets: boolean | null; assetFlags: Record<string, boolean> }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const assets = useAssets();
  const [adding, setAdding] = useState(false);
  const answer = useHouseholdMutation(householdCalls.assetQuestion);
  const remove = useHouseholdMutation(householdCalls.deleteAsset);
  const failureText = useFailureText();
  const entries = assets.data ?? [];
  return (
    <div>
      <YesNoQuestion question={t('profile:assets.question')} value={hasAssets} entries={entries.length} onAnswer={(a) => answer.mutate(a)} />
      {answer.error ? <p className="form-error" role="alert">{failureText(answer.error, 'assetOwnership')}</p> : null}
      {hasAssets
        ? (Object.keys(FLAG_ROUTES) as FlaggedAssetKind[]).map((kind) => (
            <AssetKindQuestion key={kind} kind={kind} value={assetFlags[kind] ?? null} entries={entries.filter((a) => a.kind === kind).length} />
          ))
        : null}
      <ul className="task-list">
        {entries.map((a) => (
          <li key={a.id}>
            {t(`lookups:assetKind.${a.kind}` as never)}{'institution' in a ? ` — ${a.institution}` : ''}{'last4' in a ? ` ••••${a.last4}` : ''}{' '}
            <button type="button" className="button button-secondary" onClick={() => remove.mutate({ kind: a.kind, id: a.id })}>{t('profile:form.delete')}</button>
          </li>
        ))}
      </ul>
      {remove.error ? <p className="form-error" role="alert">{failureText(remove.error, 'assetDelete')}</p> : null}
      {hasAssets !== false ? (adding ? <AssetForm onDone={() => setAdding(false)} /> : (
        <button type="button" className="button button-primary" onClick={() => setAdding(true)}>{t('profile:assets.add')}</button>
      )) : null}
      {hasAssets !== false ? <ReadFiguresUpload documentType="bank_statement" /> : null}
    </div>
  );
}
