import { useTranslation } from 'react-i18next';

export function Loading() {
  const { t } = useTranslation('common');
  return (
    <p className="loading" role="status">
      {t('actions.loading')}
    </p>
  );
}

/** A failed load: what failed, why (translated by code), and a way to try again. */
export function LoadError({ title, detail, onRetry }: { title: string; detail: string; onRetry?: () => void }) {
  const { t } = useTranslation('common');
  return (
    <div className="load-error" role="alert">
      <p className="load-error-title">{title}</p>
      <p>{detail}</p>
      {onRetry ? (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          {t('actions.retry')}
        </button>
      ) : null}
    </div>
  );
}
