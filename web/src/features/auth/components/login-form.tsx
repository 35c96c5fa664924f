import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { LoginBody, type ProfileNotMatchedData } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { account, isMfaPending } from '../api/account';
import { useLogin } from '../api/login';
import { LoginCodeForm } from './login-code-form';

type FieldErrors = Partial<Record<keyof LoginBody, true>>;

/**
 * Username (or email) and password. On success the session is stored and SignedOutOnly moves the
 * visitor on; any failure reads 'Login failed' (spec section 4).
 */
export function LoginForm() {
  const { t } = useTranslation('common');
  const login = useLogin();
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();
  const errorText = useErrorText();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [username, setUsername] = useState('');
  const usernameId = useId();
  const passwordId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = LoginBody.safeParse({ username: form.get('username'), password: form.get('password') });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) errors[issue.path[0] as keyof LoginBody] = true;
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    setUsername(parsed.data.username);
    login.mutate(parsed.data, {
      onSuccess: (data) => {
        if (!isMfaPending(data)) return;
        // Spec section 4: keep the user id as pending, send an OTP, go to /verify-otp.
        toast.showInfo(t('errors.mfaRequired'));
        account
          .sendOtp(data.userId, 'email')
          .then(() => toast.showSuccess(t('errors.otpSent')))
          .catch(() => toast.showError(t('errors.otpSendFailed')));
        void navigate(`${paths.auth.verifyOtp.getHref()}${location.search}`);
      },
      onError: (error) => {
        const data = error instanceof ApiError ? (error.data as Partial<ProfileNotMatchedData> | null) : null;
        if (data?.code === 'tenantProfileNotMatched') {
          void navigate(paths.auth.profileMatching.getHref({ email: data.email ?? '' }));
        } else if (data?.code === 'applicantProfileNotMatched') {
          void navigate(
            paths.auth.leaseUpProfileMatching.getHref({ email: data.email ?? '', firstName: data.firstName ?? '', lastName: data.lastName ?? '', phone: data.phoneNumber ?? '' }),
          );
        }
      },
    });
  }

  const failure = login.error instanceof ApiError && ['tooManyAttempts', 'emailNotVerified'].includes(login.error.code) ? errorText(login.error) : t('errors.loginFailed');

  const throttled = login.error instanceof ApiError && login.error.code === 'tooManyAttempts';

  return (
    <>
      <form className="form login-form" onSubmit={onSubmit} noValidate>
        {login.isError ? (
          <p className="form-error" role="alert">
            {failure}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor={usernameId}>{t('login.username')}</label>
          <input
            id={usernameId}
            name="username"
            type="text"
            autoComplete="username"
            required
            aria-invalid={fieldErrors.username ? true : undefined}
            aria-describedby={fieldErrors.username ? `${usernameId}-error` : undefined}
          />
          {fieldErrors.username ? (
            <p id={`${usernameId}-error`} className="field-error">
              {t('login.required')}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={passwordId}>{t('login.password')}</label>
          <input
            id={passwordId}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={fieldErrors.password ? true : undefined}
            aria-describedby={fieldErrors.password ? `${passwordId}-error` : undefined}
          />
          {fieldErrors.password ? (
            <p id={`${passwordId}-error`} className="field-error">
              {t('login.required')}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button-primary" disabled={login.isPending}>
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
      {throttled ? <LoginCodeForm username={username} /> : null}
    </>
  );
}
