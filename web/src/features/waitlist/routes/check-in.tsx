import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { StandingFigures } from '../../../components/waitlist/standing';
import { useErrorText } from '../../../lib/errors';
import { waitlistLink } from '../../../lib/waitlist-api';

/**
 * `/waitlist/check-in?token=`: the page the link of a check-in notice opens, signed out. Reading it
 * shows the question and changes nothing (mail scanners open every link); only the button acts.
 */
export function WaitlistCheckInRoute() {
  const { t } = useTranslation('lottery');
  usePageTitle(t('waitlist.checkInTitle'));
  const { t: tc } = useTranslation('common');
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const view = useQuery({ queryKey: ['waitlist', 'link', token], queryFn: () => waitlistLink.view(token), enabled: token !== '', retry: false });
  const act = useMutation({ mutationFn: (action: 'ConfirmInterest' | 'RestorePlace') => waitlistLink.act(token, action) });
  const standing = act.data ?? view.data;
  return (
    <div className="page page-narrow">
      <h1>{t('waitlist.checkInTitle')}</h1>
      {token === '' ? (
        <p role="alert">{tc('errors.waitlistLinkInvalid')}</p>
      ) : view.isPending ? (
        <Loading />
      ) : view.isError || !standing ? (
        <LoadError title={t('waitlist.linkError')} detail={errorText(view.error)} onRetry={() => void view.refetch()} />
      ) : (
        <>
          <h2>{standing.opportunityName}</h2>
          {act.isSuccess ? <p role="status">{act.variables === 'RestorePlace' ? t('waitlist.restored') : t('waitlist.kept')}</p> : null}
          <StandingFigures standing={standing} />
          {act.isError ? (
            <p className="form-error" role="alert">
              {errorText(act.error)}
            </p>
          ) : null}
          {standing.next === 'confirm_now' ? (
            <button type="button" className="button button-primary" disabled={act.isPending} onClick={() => act.mutate('ConfirmInterest')}>
              {t('waitlist.keep')}
            </button>
          ) : null}
          {standing.next === 'restore_now' ? (
            <button type="button" className="button button-primary" disabled={act.isPending} onClick={() => act.mutate('RestorePlace')}>
              {t('waitlist.restore')}
            </button>
          ) : null}
        </>
      )}
    </div>
  );
}
