import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';

/** Asks before a destructive answer (spec section 4: answering NO deletes the entries after confirmation). */
export function ConfirmDialog({ open, title, body, onConfirm, onCancel }: { open: boolean; title: string; body: string; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation('profile');
  return (
    <Dialog open={open} title={title} onClose={onCancel}>
      <p>{body}</p>
      <div className="action-buttons">
        <button type="button" className="button button-danger" onClick={onConfirm}>
          {t('confirm.yesDelete')}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('confirm.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
