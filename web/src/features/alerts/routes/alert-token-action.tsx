import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import { publicAlerts } from '../api/alerts';

/**
 * The pages a link in an alert message opens: they only show a button; the button's POST acts.
 * Mail scanners open every link, so opening it must change nothing.
 */
function TokenActionPage({ kind }: { kind: 'confirm' | 'unsubscribe' }) {
  const { t } = useTranslation('alerts');
  usePageTitle(t(`${kind}.title`));
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const act = useMutation({
    mutationFn: async () => {
      if (kind === 'confirm') await publicAlerts.confirm(token);
      else await publicAlerts.unsubscribe(token);
    },
  });
  return (
    <div className="page page-narrow">
      <h1>{t(`${kind}.title`)}</h1>
      {act.isSuccess ? (
        <p role="status">{t(`${kind}.done`)}</p>
      ) : (
        <>
          <p className="lead">{t(`${kind}.intro`)}</p>
          {act.isError ? (
            <p className="form-error" role="alert">
              {errorText(act.error)}
            </p>
          ) : null}
          <button type="button" className="button button-primary" disabled={act.isPending || token === ''} onClick={() => act.mutate()}>
            {t(`${kind}.button`)}
          </button>
        </>
      )}
    </div>
  );
}

/** `/alerts/confirm?token=`: starts a visitor's alert. */
export function ConfirmAlertRoute() {
  return <TokenActionPage kind="confirm" />;
}

/** `/alerts/unsubscribe?token=`: ends an alert, without signing in. */
export function UnsubscribeAlertRoute() {
  return <TokenActionPage kind="unsubscribe" />;
}
