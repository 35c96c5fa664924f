import { useCallback, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { ACTIONS_NEEDING_REASON, IRREVERSIBLE_ACTIONS, type ApplicationDetail, type LeaseUpAction } from '../../../lib/domain';
import type { ActionPayload } from '../api/run-action';
import { ActionFields, readPayload } from './action-fields';
import { useLeaseUpLabels } from './labels';

interface ActionDialogProps {
  action: LeaseUpAction;
  application: ApplicationDetail;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (payload: ActionPayload) => void;
}

/**
 * The form of one action: what it needs (reason, documents, slots, units, offer answer, signature),
 * and a warning when it cannot be undone (withdraw, accept or decline an offer, reject, deny).
 */
export function ActionDialog({ action, application, pending, onCancel, onConfirm }: ActionDialogProps) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  const reasonId = useId();
  const [missing, setMissing] = useState(false);
  const [signature, setSignature] = useState<string | null>(null);
  const onSignature = useCallback((png: string | null) => setSignature(png), []);
  const needsReason = ACTIONS_NEEDING_REASON.includes(action);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const payload = readPayload(action, form, application, signature);
    const reason = String(form.get('reason') ?? '').trim();
    if (!payload || (needsReason && !reason)) {
      setMissing(true);
      return;
    }
    setMissing(false);
    onConfirm(needsReason ? { ...payload, reason } : payload);
  }

  return (
    <Dialog open title={labels.action(action)} onClose={onCancel}>
      <form className="form" onSubmit={onSubmit} noValidate>
        {IRREVERSIBLE_ACTIONS.includes(action) ? <p className="notice">{t('confirm.irreversible')}</p> : null}
        <ActionFields action={action} application={application} onSignature={onSignature} />
        {needsReason ? (
          <div className="field">
            <label htmlFor={reasonId}>{t('confirm.reason')}</label>
            <textarea id={reasonId} name="reason" rows={4} maxLength={2000} required aria-invalid={missing || undefined} />
          </div>
        ) : null}
        {missing ? (
          <p className="field-error" role="alert">
            {needsReason ? t('confirm.reasonRequired') : t('confirm.fillIn')}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            {t('confirm.cancel')}
          </button>
          <button type="submit" className={`button ${IRREVERSIBLE_ACTIONS.includes(action) ? 'button-danger' : 'button-primary'}`} disabled={pending}>
            {pending ? t('confirm.working') : t('confirm.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
