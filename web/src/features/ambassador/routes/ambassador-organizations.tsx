import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import { useSession } from '../../auth/hooks/use-session';
import { useAmbassadorOrganizations } from '../api/ambassador';

/** /ambassador/organizations (spec section 2): the organisations the ambassador serves. */
export function AmbassadorOrganizationsRoute() {
  const { t } = useTranslation('ambassador');
  usePageTitle(t('organizations.title'));
  const session = useSession();
  const errorText = useErrorText();
  const organizations = useAmbassadorOrganizations(session?.user.userId ?? '');
  const rows = organizations.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <div className="page">
      <h1>{t('organizations.title')}</h1>
      <p>{t('organizations.intro')}</p>
      {organizations.isPending ? (
        <Loading />
      ) : organizations.isError ? (
        <LoadError title={t('organizations.loadError')} detail={errorText(organizations.error)} onRetry={() => void organizations.refetch()} />
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('organizations.title')}>
          <table>
            <caption className="visually-hidden">{t('organizations.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('organizations.name')}</th>
                <th scope="col">{t('organizations.kind')}</th>
                <th scope="col">{t('organizations.contact')}</th>
                <th scope="col">{t('organizations.period')}</th>
                <th scope="col">{t('organizations.users')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((o) => (
                <tr key={o.organizationId}>
                  <th scope="row">{o.name}</th>
                  <td>{t(`organizations.kinds.${o.kind}`)}</td>
                  <td>{[o.email, o.phone].filter(Boolean).join(' · ')}</td>
                  <td>{t('organizations.periodDays', { days: o.accessPeriodDays })}</td>
                  <td>{o.userCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {organizations.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => void organizations.fetchNextPage()}>
          {t('organizations.more')}
        </button>
      ) : null}
    </div>
  );
}
