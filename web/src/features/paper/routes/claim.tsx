import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/errors';
import { useClaimPaperApplication } from '../api/paper';

/**
 * /claim-paper-application: a household that applied on paper takes its application into this
 * account with the code of its letter and its head's date of birth. The refusals (a wrong code,
 * an expired one, too many tries) are the API's messages in the reader's language.
 */
export function ClaimPaperRoute() {
  const { t } = useTranslation('lottery');
  usePageTitle(t('claim.title'));
  const id = useId();
  const errorText = useErrorText();
  const claim = useClaimPaperApplication();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    claim.mutate({ code: String(form.get('code') ?? ''), dateOfBirth: String(form.get('dateOfBirth') ?? '') });
  };
  return (
    <div className="page">
      <h1>{t('claim.title')}</h1>
      <p>{t('claim.intro')}</p>
      {claim.isSuccess ? (
        <p role="status" className="notice" data-testid="claim-done">
          {t('claim.claimed')} <Link to={paths.app.myApplications.getHref()}>{t('claim.open')}</Link>
        </p>
      ) : (
        <form className="form panel" onSubmit={submit}>
          <div className="field">
            <label htmlFor={`${id}-code`}>{t('claim.code')}</label>
            <input id={`${id}-code`} name="code" required autoComplete="off" maxLength={20} aria-describedby={claim.error ? `${id}-error` : undefined} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-dob`}>{t('claim.dateOfBirth')}</label>
            <input id={`${id}-dob`} name="dateOfBirth" type="date" required autoComplete="off" aria-describedby={claim.error ? `${id}-error` : undefined} />
          </div>
          {claim.error ? (
            <p id={`${id}-error`} className="form-error" role="alert">
              {errorText(claim.error)}
            </p>
          ) : null}
          <button type="submit" className="button button-primary" disabled={claim.isPending}>
            {t('claim.submit')}
          </button>
        </form>
      )}
    </div>
  );
}
