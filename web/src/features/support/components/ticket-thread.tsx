import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import type { SupportTicketAttachment, SupportTicketMessage } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { downloadAttachment } from '../api/support-tickets';
import { TranslatableText } from '../../../components/translatable-text';

/** The messages of a ticket, oldest first, each saying who wrote it and when, with the files sent with it. */
export function TicketThread({ ticketId, messages, attachments, mySide }: { ticketId: string; messages: SupportTicketMessage[]; attachments: SupportTicketAttachment[]; mySide: 'requester' | 'staff' }) {
  const { t, i18n } = useTranslation('support');
  const toast = useToast();
  const errorText = useErrorText();
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const size = (bytes: number) => new Intl.NumberFormat(i18n.language, { style: 'unit', unit: bytes >= 1_048_576 ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 }).format(bytes >= 1_048_576 ? bytes / 1_048_576 : Math.max(0.1, bytes / 1024));
  return (
    <ol className="ticket-thread" aria-label={t('detail.thread')}>
      {messages.map((m) => {
        const files = attachments.filter((a) => a.messageSeq === m.seq);
        return (
          <li key={m.seq} className={`ticket-message ticket-message-${m.side === mySide ? 'mine' : 'theirs'}`}>
            <p className="ticket-message-meta">
              <strong>{m.side === mySide ? t('detail.you') : m.side === 'staff' ? t('detail.office') : t('detail.requester')}</strong> · <time dateTime={m.at}>{when(m.at)}</time>
            </p>
            <p className="ticket-message-body">{m.side === mySide ? m.body : <TranslatableText text={m.body} />}</p>
            {files.length ? (
              <ul className="attachment-list" aria-label={t('attachments.title')}>
                {files.map((a) => (
                  <li key={a.attachmentId}>
                    <button type="button" className="button button-link" onClick={() => void downloadAttachment(ticketId, a).catch((e: unknown) => toast.showError(errorText(e)))}>
                      {t('attachments.download', { name: a.fileName })}
                    </button>{' '}
                    <span className="field-hint">({size(a.sizeBytes)})</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
