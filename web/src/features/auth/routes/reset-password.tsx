import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { ResetPasswordBody } from '../../../lib/domain';
import { account } from '../api/account';
import { wasRefused } from '../../../lib/api-client';
import { AuthPage } from '../components/auth-page';
import { Loading } from '../../../components/ui/status-message';
import { useFieldError } from '../field-error';
import { Field } from '../components/field';

/** /resetpassword?userId&token: the link is checked first; a non-OK check goes to /link-expired (spec section 4). */
export function ResetPasswordRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const token = params.get('token') ?? '';
  const check = useQuery({ queryKey: ['check-reset-token', token], queryFn: () => account.checkResetToken(token), retry: false, enabled: token.length >= 20 });
  const form = useForm({ resolver: zodResolver(ResetPasswordBody), defaultValues: { userId, token } });
  const reset = useMutation({ mutationFn: account.resetPassword });
  const fieldError = useFieldError();
  // Spec sections 4 and 8: a refused link goes to /link-expired; a check that could not be made says so.
  if (token.length < 20 || (check.isError && wasRefused(check.error))) return <Navigate to={paths.auth.linkExpired.getHref()} replace />;
  if (check.isError) {
    return (
      <AuthPage title={t('resetPassword.title')} intro={t('resetPassword.intro')}>
        <p className="form-error" role="alert">{t('common:errors.resetTokenCheckFailed')}</p>
        <button type="button" className="button button-secondary" onClick={() => void check.refetch()}>{t('common:actions.retry')}</button>
      </AuthPage>
    );
  }
  if (check.isPending) return <Loading />;
  const e = form.formState.errors;
  return (
    <AuthPage title={t('resetPassword.title')} intro={t('resetPassword.intro')}>
      {reset.isSuccess ? (
        <p role="status">{t('resetPassword.done')}</p>
      ) : (
        <form className="form" noValidate onSubmit={form.handleSubmit((values) => reset.mutate(values))}>
          {reset.isError ? (
            <p className="form-error" role="alert">
              {t('common:errors.somethingWentWrong')}
            </p>
          ) : null}
          <Field label={t('register.password')} type="password" autoComplete="new-password" {...form.register('password')} error={fieldError(e.password?.message)} />
          <Field label={t('register.confirmPassword')} type="password" autoComplete="new-password" {...form.register('confirmPassword')} error={fieldError(e.confirmPassword?.message)} />
          <button type="submit" className="button button-primary" disabled={reset.isPending}>
            {t('resetPassword.submit')}
          </button>
        </form>
      )}
      <Link to={paths.login.getHref()}>{t('register.toLogin')}</Link>
    </AuthPage>
  );
}
