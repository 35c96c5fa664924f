import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { OperatorReason } from '../../../lib/domain';

/** Asks for the reason an operator gives (recorded in the audit log) before an action. */
export function ReasonDialog({
  open,
  title,
  hint,
  optional = false,
  busy,
  onClose,
  onConfirm,
  children,
}: {
  open: boolean;
  title: string;
  hint?: string;
  /** The action may go without a reason (a decoded export stays redacted then). */
  optional?: boolean;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('operator');
  const ids = { reason: useId(), hint: useId(), error: useId() };
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (optional && reason.trim() === '') return onConfirm('');
    const parsed = OperatorReason.safeParse(reason);
    if (!parsed.success) return setError(t('dialog.reasonRequired'));
    setError(null);
    onConfirm(parsed.data);
  };
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {children}
        <div className="field">
          <label htmlFor={ids.reason}>{t('dialog.reason')}</label>
          <textarea
            id={ids.reason}
            value={reason}
            maxLength={500}
            rows={3}
            aria-describedby={`${ids.hint}${error ? ` ${ids.error}` : ''}`}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
          <p id={ids.hint} className="field-hint">
            {hint ?? t('dialog.reasonHint')}
          </p>
          {error ? (
            <p id={ids.error} className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {t('dialog.confirm')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
