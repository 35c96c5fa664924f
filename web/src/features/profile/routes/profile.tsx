import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/validation-text';
import { householdCalls, useHouseholdMutation, useProfile } from '../api/profile';
import { AddressForm } from '../components/address-form';
import { DocumentsTab } from '../components/documents-tab';
import { Section } from '../components/fields';
import { HousingChoicesForm } from '../components/housing-choices-form';
import { AssetsTab, IncomeTab } from '../components/income-assets';
import { MembersSection } from '../components/members-section';
import { RentalAssistanceForm } from '../components/rental-assistance-form';

const TABS = ['income', 'assets', 'documents'] as const;

/** `/profile` (spec section 2): summary, members, income/assets/documents tabs, address, housing choices. */
export function ProfileRoute() {
  const { t } = useTranslation('profile');
  usePageTitle(t('title'));
  const errorText = useErrorText();
  const profile = useProfile();
  const [tab, setTab] = useState<(typeof TABS)[number]>('income');
  const complete = useHouseholdMutation(householdCalls.completeProfile);
  if (profile.isPending) return <Loading />;
  if (profile.isError) return <LoadError title={t('loadFailed')} detail={errorText(profile.error)} onRetry={() => void profile.refetch()} />;
  const p = profile.data;
  const percent = p.completion.percent;

  return (
    <div className="page">
      <h1>{t('title')}</h1>
      {p.locked ? <p className="notice" role="status">{t('locked')}</p> : null}
      <section className="panel panel-highlight" aria-label={t('summary.title')}>
        <h2>{t('summary.title')}</h2>
        <p>
          <progress max={100} value={percent} aria-label={t('summary.completion')} /> <strong data-testid="completion">{t('summary.percent', { percent })}</strong>
        </p>
        {percent < 100 ? (
          <ul className="task-list">
            {p.completion.missing.map((gap) => <li key={gap}>{t(`gaps.${gap}` as never)}</li>)}
          </ul>
        ) : (
          <p role="status">{t('summary.complete')}</p>
        )}
        <p>{t('summary.members', { count: p.members.length })}</p>
        {p.locked ? null : (
          <p>
            <Link to={paths.app.intake.getHref()}>{t('assistant.link')}</Link>
          </p>
        )}
        {percent === 100 ? (
          <button type="button" className="button button-primary" disabled={complete.isPending} onClick={() => complete.mutate(undefined)}>{t('summary.completeProfile')}</button>
        ) : null}
        {complete.isSuccess ? <p role="status">{t('summary.completed')}</p> : null}
        {complete.error ? <p className="form-error" role="alert">{errorText(complete.error)}</p> : null}
      </section>

      <MembersSection members={p.members} />

      <Section title={t('tabs.title')}>
        <div role="tablist" className="action-buttons">
          {TABS.map((name) => (
            <button key={name} type="button" role="tab" aria-selected={tab === name} className={tab === name ? 'button button-primary' : 'button button-secondary'} onClick={() => setTab(name)}>
              {t(`tabs.${name}`)}
            </button>
          ))}
        </div>
        <div role="tabpanel">
          {tab === 'income' ? <IncomeTab householdId={p.householdId} hasIncome={p.hasIncome} members={p.members} /> : null}
          {tab === 'assets' ? <AssetsTab hasAssets={p.hasAssets} assetFlags={p.assetFlags} /> : null}
          {tab === 'documents' ? <DocumentsTab /> : null}
        </div>
      </Section>

      <Section title={t('address.title')}>
        <AddressForm address={p.address} />
      </Section>
      <Section title={t('housing.title')}>
        <HousingChoicesForm preferences={p.preferences} />
        <RentalAssistanceForm />
      </Section>
    </div>
  );
}
