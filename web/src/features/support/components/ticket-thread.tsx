import { useTranslation } from 'react-i18next';
import { TranslatableText } from '../../../components/translatable-text';
import type { SupportTicketMessage } from '../../../lib/domain';

/** The messages of a ticket, oldest first, each saying who wrote it and when. */
export function TicketThread({ messages, mySide }: { messages: SupportTicketMessage[]; mySide: 'requester' | 'staff' }) {
  const { t, i18n } = useTranslation('support');
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <ol className="ticket-thread" aria-label={t('detail.thread')}>
      {messages.map((m) => (
        <li key={m.seq} className={`ticket-message ticket-message-${m.side === mySide ? 'mine' : 'theirs'}`}>
          <p className="ticket-message-meta">
            <strong>{m.side === mySide ? t('detail.you') : m.side === 'staff' ? t('detail.office') : t('detail.requester')}</strong> · <time dateTime={m.at}>{when(m.at)}</time>
          </p>
          <p className="ticket-message-body">{m.side === mySide ? m.body : <TranslatableText text={m.body} />}</p>
        </li>
      ))}
    </ol>
  );
}
