import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import type { RecertTenantAction } from '../../../lib/domain';

/**
 * The confirm-or-update choice (spec section 4): confirming is irreversible and locks the profile,
 * so it is confirmed twice (a dialog with a warning and an "I understand" box).
 */
export function ChoicePanel({ pending, onAction }: { pending: boolean; onAction: (action: RecertTenantAction) => void }) {
  const { t } = useTranslation('recertification');
  const [dialog, setDialog] = useState<'ConfirmProfile' | 'SubmitProfile' | null>(null);
  const [updating, setUpdating] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const close = () => {
    setDialog(null);
    setUnderstood(false);
  };
  return (
    <section className="panel">
      <h2>{t('choice.title')}</h2>
      <p>{t('choice.intro')}</p>
      <p className="hero-actions">
        <button type="button" className="button button-primary button-large" onClick={() => setDialog('ConfirmProfile')}>
          {t('choice.confirm')}
        </button>
        <button type="button" className="button button-secondary button-large" onClick={() => setUpdating(true)}>
          {t('choice.update')}
        </button>
      </p>
      {updating ? (
        <div>
          <p>{t('choice.updateHelp')}</p>
          <a href="/profile" className="button button-secondary">
            {t('choice.openProfile')}
          </a>{' '}
          <button type="button" className="button button-primary" onClick={() => setDialog('SubmitProfile')}>
            {t('choice.submitUpdated')}
          </button>
        </div>
      ) : null}
      <Dialog open={dialog !== null} title={t('choice.dialogTitle')} onClose={close}>
        <p className="notice">{t('choice.irreversible')}</p>
        <label className="checkbox">
          <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} /> {t('choice.understand')}
        </label>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={close}>
            {t('choice.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={!understood || pending}
            onClick={() => {
              if (dialog) onAction(dialog);
              close();
            }}
          >
            {t('choice.yesConfirm')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
