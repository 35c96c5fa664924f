import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../lib/validation-text';
import { profileMatch } from '../api/account';
import { AuthPage } from '../components/auth-page';
import { Field } from '../components/field';
import { OtpForm } from '../components/otp-form';

/**
 * /profile-matching?email: after 'Tenant Profile not matched' the tenant picks building and unit and
 * confirms name and date of birth; a code goes to the contact the managing agent has on file.
 */
export function ProfileMatchingRoute() {
  const { t } = useTranslation(['auth', 'common']);
  const toast = useToast();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const [buildingId, setBuildingId] = useState('');
  const buildings = useQuery({ queryKey: ['buildings'], queryFn: profileMatch.buildings });
  const units = useQuery({ queryKey: ['units', buildingId], queryFn: () => profileMatch.units(buildingId), enabled: Boolean(buildingId) });
  const match = useMutation({
    mutationFn: profileMatch.matchTenant,
    onSuccess: (m) => void profileMatch.sendTenantOtp(m.userId, m.tenantRecordId, 'email').then(() => toast.showSuccess(t('common:errors.otpSent'))),
  });
  // Where the code went is read back from the roster, so the page names the address on file, not the one typed.
  const tenantEmail = useQuery({
    queryKey: ['tenant-email', match.data?.tenantRecordId],
    queryFn: () => profileMatch.tenantEmail(match.data!.tenantRecordId),
    enabled: Boolean(match.data),
    retry: false,
  });
  const verify = useMutation({ mutationFn: (otp: string) => profileMatch.verifyTenantOtp(match.data!.userId, match.data!.tenantRecordId, otp) });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    match.mutate({
      email,
      buildingId,
      unitNumber: String(f.get('unitNumber') ?? ''),
      firstName: String(f.get('firstName') ?? ''),
      lastName: String(f.get('lastName') ?? ''),
      dateOfBirth: String(f.get('dateOfBirth') ?? ''),
    });
  }

  if (verify.isSuccess) {
    return (
      <AuthPage title={t('profileMatching.title')} intro={t('profileMatching.done')}>
        <Link className="button button-primary" to={paths.login.getHref()}>
          {t('register.toLogin')}
        </Link>
      </AuthPage>
    );
  }
  if (match.data) {
    return (
      <AuthPage title={t('profileMatching.title')} intro={t('profileMatching.codeSent', { email: tenantEmail.data?.email ?? match.data.email })}>
        {tenantEmail.isError ? <TenantEmailUnavailable /> : null}
        <OtpForm
          onSubmit={(otp) => verify.mutate(otp)}
          onResend={() => void profileMatch.sendTenantOtp(match.data.userId, match.data.tenantRecordId, 'email', true)}
          pending={verify.isPending}
          error={verify.isError ? errorText(verify.error) : null}
        />
      </AuthPage>
    );
  }
  return (
    <AuthPage title={t('profileMatching.title')} intro={t('profileMatching.intro')}>
      <form className="form" onSubmit={submit}>
        {match.isError ? (
          <p className="form-error" role="alert">
            {errorText(match.error)}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="building">{t('profileMatching.building')}</label>
          <select id="building" value={buildingId} onChange={(e) => setBuildingId(e.target.value)} required>
            <option value="">{t('profileMatching.chooseBuilding')}</option>
            {buildings.data?.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}, {b.address}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="unit">{t('profileMatching.unit')}</label>
          <select id="unit" name="unitNumber" required disabled={!units.data}>
            {units.data?.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </div>
        <Field label={t('register.firstName')} name="firstName" autoComplete="given-name" required />
        <Field label={t('register.lastName')} name="lastName" autoComplete="family-name" required />
        <Field label={t('profileMatching.dateOfBirth')} name="dateOfBirth" type="date" required />
        <button type="submit" className="button button-primary" disabled={match.isPending || !buildingId}>
          {t('profileMatching.submit')}
        </button>
      </form>
    </AuthPage>
  );
}

/** The roster's address could not be read: the code was still sent, so the page says so and goes on. */
function TenantEmailUnavailable() {
  const { t } = useTranslation('common');
  return (
    <p className="form-error" role="alert">
      {t('errors.tenantEmailFetchFailed')}
    </p>
  );
}
