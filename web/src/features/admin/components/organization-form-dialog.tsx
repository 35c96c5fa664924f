import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { DEFAULT_ACCESS_PERIOD_DAYS, DEFAULT_RETENTION_DAYS, ORGANIZATION_KINDS, OrganizationBody, type Organization, type OrganizationKind } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useFieldError } from '../../auth/field-error';
import { useSaveOrganization } from '../api/admin';

type Draft = { name: string; slug: string; kind: OrganizationKind; email: string; phone: string; accessPeriodDays: string; retentionDays: string };
const FIELDS = ['name', 'slug', 'email', 'phone', 'accessPeriodDays', 'retentionDays'] as const;
const NUMBER_FIELDS: readonly string[] = ['accessPeriodDays', 'retentionDays'];

/** Create or edit an organisation: name, short name, kind, contact and the access period of its grants. */
export function OrganizationFormDialog({ open, organization, onClose }: { open: boolean; organization: Organization | null; onClose: () => void }) {
  const { t } = useTranslation('ambassador');
  const save = useSaveOrganization();
  const toast = useToast();
  const errorText = useErrorText();
  const fieldError = useFieldError();
  const prefix = useId();
  const [draft, setDraft] = useState<Draft>({ name: '', slug: '', kind: 'property_manager', email: '', phone: '', accessPeriodDays: String(DEFAULT_ACCESS_PERIOD_DAYS), retentionDays: String(DEFAULT_RETENTION_DAYS) });
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setDraft(
      organization
        ? { name: organization.name, slug: organization.slug, kind: organization.kind, email: organization.email, phone: organization.phone, accessPeriodDays: String(organization.accessPeriodDays), retentionDays: String(organization.retentionDays) }
        : { name: '', slug: '', kind: 'property_manager', email: '', phone: '', accessPeriodDays: String(DEFAULT_ACCESS_PERIOD_DAYS), retentionDays: String(DEFAULT_RETENTION_DAYS) },
    );
  }, [open, organization]);

  function submit() {
    // The inputs hold text; the API takes numbers, and an empty or non-numeric field is NaN so the
    // schema answers with the field's own message.
    const body: OrganizationBody = { ...draft, accessPeriodDays: Number(draft.accessPeriodDays.trim() || Number.NaN), retentionDays: Number(draft.retentionDays.trim() || Number.NaN) };
    const parsed = OrganizationBody.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    save.mutate(
      { organizationId: organization?.organizationId ?? null, body },
      { onSuccess: () => { toast.showSuccess(organization ? t('admin.organizations.saved') : t('admin.organizations.created')); onClose(); }, onError: (error) => toast.showError(errorText(error)) },
    );
  }

  const id = (f: string) => `${prefix}-${f}`;
  return (
    <Dialog open={open} title={organization ? t('admin.organizations.editTitle', { name: organization.name }) : t('admin.organizations.createTitle')} onClose={onClose}>
      <form className="form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        {FIELDS.map((f) => (
          <div className="field" key={f}>
            <label htmlFor={id(f)}>{t(`admin.organizations.${f}`)}</label>
            <input
              id={id(f)}
              type={f === 'email' ? 'email' : f === 'phone' ? 'tel' : NUMBER_FIELDS.includes(f) ? 'number' : 'text'}
              value={draft[f]}
              aria-invalid={errors[f] ? true : undefined}
              aria-describedby={errors[f] ? id(`${f}-error`) : undefined}
              onChange={(e) => setDraft({ ...draft, [f]: e.target.value })}
            />
            {errors[f] ? (
              <p id={id(`${f}-error`)} className="field-error">
                {fieldError(errors[f])}
              </p>
            ) : null}
          </div>
        ))}
        <div className="field">
          <label htmlFor={id('kind')}>{t('admin.organizations.kind')}</label>
          <select id={id('kind')} value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value as OrganizationKind })}>
            {ORGANIZATION_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`organizations.kinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('create.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            {t('admin.organizations.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
