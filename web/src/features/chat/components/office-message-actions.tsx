import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import type { ChatMessage } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { useDeleteMessage, usePinMessage } from '../api/chat';

/**
 * The office's controls on one message: pin or unpin any message of the conversation (both sides
 * see it pinned at the top), and delete its own, after confirming, since the household then sees
 * only that a message was deleted.
 */
export function OfficeMessageActions({ message, own }: { message: ChatMessage; own: boolean }) {
  const { t } = useTranslation('support');
  const pin = usePinMessage();
  const remove = useDeleteMessage();
  const toast = useToast();
  const errorText = useErrorText();
  const [confirming, setConfirming] = useState(false);
  if (message.deleted) return null;
  return (
    <div className="chat-message-actions">
      <button
        type="button"
        className="button button-secondary"
        aria-pressed={message.pinned}
        disabled={pin.isPending}
        onClick={() => pin.mutate({ messageId: message.messageId, pinned: !message.pinned }, { onError: (e) => toast.showError(errorText(e)) })}
      >
        {message.pinned ? t('chat.unpin') : t('chat.pin')}
      </button>
      {own ? (
        <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>
          {t('chat.delete')}
        </button>
      ) : null}
      <Dialog open={confirming} title={t('chat.deleteTitle')} onClose={() => setConfirming(false)}>
        <p>{t('chat.deleteBody')}</p>
        <div className="action-buttons">
          <button
            type="button"
            className="button button-danger"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(message.messageId, {
                onSuccess: () => {
                  setConfirming(false);
                  toast.showSuccess(t('chat.deletedDone'));
                },
                onError: (e) => toast.showError(errorText(e)),
              })
            }
          >
            {t('chat.deleteConfirm')}
          </button>
          <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
            {t('chat.keep')}
          </button>
        </div>
      </Dialog>
    </div>
  );
}
