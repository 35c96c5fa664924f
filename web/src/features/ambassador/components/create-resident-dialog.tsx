import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { CreateResidentBody, LANGUAGES } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useFieldError } from '../../auth/field-error';
import { useSession } from '../../auth/hooks/use-session';
import { useAmbassadorOrganizations, useCreateResident } from '../api/ambassador';
import { LanguageOptions } from '../../../components/ui/language-options';

type Draft = { role: 'User' | 'Tenant'; organizationId: string; firstName: string; lastName: string; username: string; email: string; phoneNumber: string; preferredLanguage: (typeof LANGUAGES)[number] };
const EMPTY: Draft = { role: 'User', organizationId: '', firstName: '', lastName: '', username: '', email: '', phoneNumber: '', preferredLanguage: 'en' };
const TEXT_FIELDS = ['firstName', 'lastName', 'username', 'email', 'phoneNumber'] as const;

/**
 * "Create new applicant" (an applicant account) and "Add new user" (an applicant or a tenant) of
 * spec section 2, validated with the schema the API uses. The person gets an invitation by email.
 */
export function CreateResidentDialog({ kind, onClose }: { kind: 'applicant' | 'user' | null; onClose: () => void }) {
  const { t } = useTranslation('ambassador');
  const session = useSession();
  const organizations = useAmbassadorOrganizations(session?.user.userId ?? '');
  const create = useCreateResident();
  const toast = useToast();
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const idPrefix = useId();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const orgs = organizations.data?.pages.flatMap((p) => p.items) ?? [];

  useEffect(() => {
    if (kind) {
      setDraft({ ...EMPTY, organizationId: orgs[0]?.organizationId ?? '' });
      setErrors({});
    }
    // Reset only when the dialog opens.
  }, [kind]);

  function submit() {
    const parsed = CreateResidentBody.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (user) => {
        toast.showSuccess(t('create.created', { name: `${user.firstName} ${user.lastName}` }));
        onClose();
      },
      onError: (error) => toast.showError(errorText(error)),
    });
  }

  const id = (field: string) => `${idPrefix}-${field}`;
  return (
    <Dialog open={kind !== null} title={kind === 'user' ? t('create.userTitle') : t('create.applicantTitle')} onClose={onClose}>
      <form className="form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <p>{t('create.intro')}</p>
        {kind === 'user' ? (
          <div className="field">
            <label htmlFor={id('role')}>{t('create.role')}</label>
            <select id={id('role')} value={draft.role} onChange={(e) => setDraft({ ...draft, role: e.target.value as Draft['role'] })}>
              <option value="User">{t('create.roles.User')}</option>
              <option value="Tenant">{t('create.roles.Tenant')}</option>
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={id('organizationId')}>{t('create.organization')}</label>
          <select id={id('organizationId')} value={draft.organizationId} onChange={(e) => setDraft({ ...draft, organizationId: e.target.value })}>
            {orgs.map((o) => (
              <option key={o.organizationId} value={o.organizationId}>
                {o.name}
              </option>
            ))}
          </select>
        </div>
        {TEXT_FIELDS.map((field) => (
          <div className="field" key={field}>
            <label htmlFor={id(field)}>{t(`create.${field}`)}</label>
            <input
              id={id(field)}
              type={field === 'email' ? 'email' : field === 'phoneNumber' ? 'tel' : 'text'}
              autoComplete="off"
              value={draft[field]}
              aria-invalid={errors[field] ? true : undefined}
              aria-describedby={errors[field] ? id(`${field}-error`) : undefined}
              onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
            />
            {errors[field] ? (
              <p id={id(`${field}-error`)} className="field-error">
                {fieldError(errors[field])}
              </p>
            ) : null}
          </div>
        ))}
        <div className="field">
          <label htmlFor={id('language')}>{t('create.language')}</label>
          <select id={id('language')} value={draft.preferredLanguage} onChange={(e) => setDraft({ ...draft, preferredLanguage: e.target.value as Draft['preferredLanguage'] })}>
            <LanguageOptions />
          </select>
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('create.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {t('create.submit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
