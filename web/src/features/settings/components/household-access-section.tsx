import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useAnswerGrant, useHouseholdGrants } from '../api/access';
import { HouseholdAuditList } from './household-audit-list';

/**
 * The household's side of consented access, in its settings: who asked, who may act for
 * it and until when, allow, decline, extend for another period or stop at any time, and everything
 * done for it.
 */
export function HouseholdAccessSection() {
  const { t } = useTranslation('ambassador');
  const heading = useId();
  const grants = useHouseholdGrants();
  const answer = useAnswerGrant();
  const toast = useToast();
  const errorText = useErrorText();
  const rows = grants.data?.pages.flatMap((p) => p.items) ?? [];
  const open = rows.filter((g) => g.status === 'pending' || g.status === 'granted');
  const act = (grantId: string, kind: 'grant' | 'revoke' | 'extend', done: string) =>
    answer.mutate({ grantId, answer: kind }, { onSuccess: () => toast.showSuccess(done), onError: (error) => toast.showError(errorText(error)) });

  return (
    <section aria-labelledby={heading} className="card">
      <h2 id={heading}>{t('household.title')}</h2>
      <p>{t('household.intro')}</p>
      {grants.isPending ? (
        <Loading />
      ) : grants.isError ? (
        <LoadError title={t('household.loadError')} detail={errorText(grants.error)} onRetry={() => void grants.refetch()} />
      ) : open.length === 0 ? (
        <p>{t('household.grantsEmpty')}</p>
      ) : (
        <ul className="card-list">
          {open.map((g) => (
            <li key={g.grantId} className="card">
              <h3 className="card-title">{g.organizationName}</h3>
              <p>{t('household.requestedBy', { name: g.requestedByName, date: formatDate(g.requestedAt), days: g.periodDays })}</p>
              {g.status === 'granted' ? (
                <>
                  <p className="badge badge-open">{t('household.grantedUntil', { date: formatDate(g.expiresAt) })}</p>
                  <p className="action-buttons">
                    <button type="button" className="button button-secondary" disabled={answer.isPending} onClick={() => act(g.grantId, 'extend', t('household.extended'))}>
                      {t('household.extend', { name: g.organizationName, days: g.periodDays })}
                    </button>
                    <button type="button" className="button button-danger" disabled={answer.isPending} onClick={() => act(g.grantId, 'revoke', t('household.revoked'))}>
                      {t('household.revoke', { name: g.organizationName })}
                    </button>
                  </p>
                </>
              ) : (
                <p className="action-buttons">
                  <button type="button" className="button button-primary" disabled={answer.isPending} onClick={() => act(g.grantId, 'grant', t('household.granted'))}>
                    {t('household.grant', { name: g.organizationName })}
                  </button>
                  <button type="button" className="button button-secondary" disabled={answer.isPending} onClick={() => act(g.grantId, 'revoke', t('household.declined'))}>
                    {t('household.decline')}
                  </button>
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      <HouseholdAuditList />
    </section>
  );
}
