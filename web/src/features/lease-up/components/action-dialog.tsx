import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { ACTIONS_NEEDING_REASON, ActionBody, IRREVERSIBLE_ACTIONS, type LeaseUpAction } from '../../../lib/domain';
import { useLeaseUpLabels } from './labels';

interface ActionDialogProps {
  action: LeaseUpAction;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (reason?: string) => void;
}

/** Confirms an irreversible action and/or asks the reason it needs ('Please provide a reason.'). */
export function ActionDialog({ action, pending, onCancel, onConfirm }: ActionDialogProps) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  const reasonId = useId();
  const [reasonMissing, setReasonMissing] = useState(false);
  const needsReason = ACTIONS_NEEDING_REASON.includes(action);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!needsReason) return onConfirm();
    const reason = new FormData(event.currentTarget).get('reason');
    const parsed = ActionBody.safeParse({ reason: typeof reason === 'string' ? reason : '' });
    if (!parsed.success || !parsed.data.reason) {
      setReasonMissing(true);
      return;
    }
    setReasonMissing(false);
    onConfirm(parsed.data.reason);
  }

  return (
    <Dialog open title={labels.action(action)} onClose={onCancel}>
      <form className="form" onSubmit={onSubmit} noValidate>
        {IRREVERSIBLE_ACTIONS.includes(action) ? <p className="notice">{t('confirm.irreversible')}</p> : null}
        {needsReason ? (
          <div className="field">
            <label htmlFor={reasonId}>{t('confirm.reason')}</label>
            <textarea
              id={reasonId}
              name="reason"
              rows={4}
              maxLength={2000}
              required
              aria-invalid={reasonMissing || undefined}
              aria-describedby={reasonMissing ? `${reasonId}-error` : undefined}
            />
            {reasonMissing ? (
              <p id={`${reasonId}-error`} className="field-error">
                {t('confirm.reasonRequired')}
              </p>
            ) : null}
          </div>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onCancel}>
            {t('confirm.cancel')}
          </button>
          <button type="submit" className="button button-danger" disabled={pending}>
            {pending ? t('confirm.working') : t('confirm.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
