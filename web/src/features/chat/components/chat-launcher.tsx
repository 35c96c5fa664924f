import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TranslatableText } from '../../../components/translatable-text';
import { useToast } from '../../../components/ui/toast';
import { LEGACY_SHARED_DOCUMENT_PREFIX, TicketMessageText, type ChatMessage, type Role } from '../../../lib/domain';
import { useErrorText, useValidationText } from '../../../lib/validation-text';
import { chatKey, useActiveChats, useHistory, useMarkSeen, useSendMessage, useUnseen } from '../api/chat';
import { useChatEvents } from '../api/chat-events';
import { getSession } from '../../../lib/session';
import { OfficeMessageActions } from './office-message-actions';
import { ShareDocument } from './share-document';

/**
 * The header's Messages button with the unread count (auth state unseenMessagesCount) and the chat
 * window it opens (showChatWindow): a resident talks with their household's managing office
 * (activeOrganizationIdForChat); a manager picks a household from the active chats.
 */
export function ChatLauncher({ role }: { role: Role }) {
  const { t } = useTranslation('support');
  const staff = role === 'Manager';
  const enabled = staff || role === 'User' || role === 'Tenant';
  const unseen = useUnseen(enabled);
  // One live stream per signed-in page: the header's count and the open window follow it.
  useChatEvents(chatKey, enabled);
  const [showChatWindow, setShowChatWindow] = useState(false);
  const panelId = useId();
  if (!enabled) return null;
  const count = unseen.data?.unseenMessagesCount ?? 0;
  return (
    <>
      <button type="button" className="button button-secondary" aria-expanded={showChatWindow} aria-controls={panelId} onClick={() => setShowChatWindow(!showChatWindow)}>
        {t('chat.open')} <span className="badge" data-testid="unseen-count" aria-label={t('chat.unread', { count })}>{count}</span>
      </button>
      {showChatWindow ? (
        <section id={panelId} className="chat-window panel" aria-label={t('chat.title')}>
          <h2>{t('chat.title')}</h2>
          {staff ? <StaffChats /> : <Conversation householdId={unseen.data?.householdId ?? null} organizationId={unseen.data?.activeOrganizationIdForChat ?? null} staff={false} />}
          <button type="button" className="button button-secondary" onClick={() => setShowChatWindow(false)}>
            {t('chat.close')}
          </button>
        </section>
      ) : null}
    </>
  );
}

function StaffChats() {
  const { t } = useTranslation('support');
  const chats = useActiveChats(true);
  const [chosen, setChosen] = useState<{ householdId: string; organizationId: string } | null>(null);
  if (chosen) return (
    <>
      <button type="button" className="button button-secondary" onClick={() => setChosen(null)}>{t('chat.back')}</button>
      <Conversation householdId={chosen.householdId} organizationId={chosen.organizationId} staff />
    </>
  );
  const rows = chats.data?.items ?? [];
  return rows.length ? (
    <ul className="chat-list">
      {rows.map((c) => (
        <li key={c.householdId}>
          <button type="button" className="button button-link" onClick={() => setChosen(c)}>
            {c.householdName}
            {c.unseen ? ` (${t('chat.unread', { count: c.unseen })})` : ''}
          </button>
        </li>
      ))}
    </ul>
  ) : (
    <p>{t('chat.noChats')}</p>
  );
}

function Conversation({ householdId, organizationId, staff }: { householdId: string | null; organizationId: string | null; staff: boolean }) {
  const { t, i18n } = useTranslation('support');
  const history = useHistory(householdId, organizationId);
  const send = useSendMessage();
  const seen = useMarkSeen();
  const toast = useToast();
  const errorText = useErrorText();
  const validationText = useValidationText();
  const inputId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const items = history.data?.items ?? [];
  const newest = items[0];
  const mySide = staff ? 'staff' : 'household';
  // Reading the window marks what is shown as seen (the other side's newest message).
  useEffect(() => {
    if (householdId && organizationId && newest && newest.side !== mySide) seen.mutate({ householdId, organizationId, messageId: newest.messageId });
  }, [newest?.messageId]);
  if (!householdId || !organizationId) return <p>{t('chat.noOffice')}</p>;

  function onSend(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = TicketMessageText.safeParse(text);
    if (!parsed.success) return setError(validationText(parsed.error.issues[0]?.message));
    setError(undefined);
    send.mutate(staff ? { householdId: householdId!, message: parsed.data } : { organizationId: organizationId!, message: parsed.data }, {
      onSuccess: () => setText(''),
      onError: (e) => toast.showError(errorText(e)),
    });
  }
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const shown = (m: ChatMessage) => (m.side === mySide || m.kind === 'documents_shared' ? messageText(m, t) : <TranslatableText text={messageText(m, t) ?? ''} />);
  const pinned = items.filter((m) => m.pinned && !m.deleted);
  const myUserId = getSession()?.user.userId;
  return (
    <>
      {pinned.length ? (
        <section className="chat-pinned" aria-labelledby={`${inputId}-pinned`} data-testid="chat-pinned">
          <h3 id={`${inputId}-pinned`}>{t('chat.pinnedTitle')}</h3>
          <ul>
            {pinned.map((m) => <li key={m.messageId}>{shown(m)}</li>)}
          </ul>
        </section>
      ) : null}
      <ol className="ticket-thread" aria-live="polite" aria-label={t('detail.thread')}>
        {[...items].reverse().map((m) => (
          <li key={m.messageId} className={`ticket-message ticket-message-${m.side === mySide ? 'mine' : 'theirs'}`}>
            <p className="ticket-message-meta">
              <strong>{m.side === mySide ? t('detail.you') : staff ? t('detail.requester') : t('detail.office')}</strong> · <time dateTime={m.createdAt}>{when(m.createdAt)}</time>
              {m.pinned && !m.deleted ? <> · <span className="badge">{t('chat.pinned')}</span></> : null}
            </p>
            <p className="ticket-message-body">{m.deleted ? t('chat.deleted') : shown(m)}</p>
            {staff ? <OfficeMessageActions message={m} own={m.side === 'staff' && m.senderUserId === myUserId} /> : null}
          </li>
        ))}
      </ol>
      <form onSubmit={onSend} noValidate>
        <div className="field">
          <label htmlFor={inputId}>{t('chat.message')}</label>
          <textarea id={inputId} rows={2} maxLength={4000} value={text} aria-invalid={Boolean(error)} aria-describedby={error ? `${inputId}-error` : undefined} onChange={(e) => setText(e.target.value)} />
          {error ? <p id={`${inputId}-error`} className="field-error">{error}</p> : null}
        </div>
        <button type="submit" className="button button-primary" disabled={send.isPending}>
          {t('chat.send')}
        </button>
      </form>
      {staff ? null : <ShareDocument organizationId={organizationId} />}
    </>
  );
}

/**
 * A message as its reader should see it: a shared-documents notice in the reader's language with
 * the file names (older notices were stored as English text: they are recognised and shown the same way).
 */
function messageText(m: ChatMessage, t: (key: 'chat.sharedDocuments', options: { names: string }) => string): string | null {
  if (m.kind === 'documents_shared') return t('chat.sharedDocuments', { names: m.body ?? '' });
  if (m.side === 'household' && m.body?.startsWith(LEGACY_SHARED_DOCUMENT_PREFIX)) return t('chat.sharedDocuments', { names: m.body.slice(LEGACY_SHARED_DOCUMENT_PREFIX.length) });
  return m.body;
}
