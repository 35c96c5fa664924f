import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { TicketMessageText } from '../../../lib/domain';
import { useErrorText, useValidationText } from '../../../lib/validation-text';
import { useSession } from '../../auth/hooks/use-session';
import { useTicket, useTicketStep, type TicketDetail } from '../api/support-tickets';
import { TicketThread } from './ticket-thread';
import { AttachFiles } from '../../../components/attach-files';
import { useTicketEvents } from '../api/ticket-events';

/** One ticket for either side: the thread, the reply box, and for staff the case beside it, assign and resolve. */
export function TicketDetailPage({ id, backHref }: { id: string; backHref: string }) {
  const { t } = useTranslation('support');
  usePageTitle(t('detail.title'));
  const errorText = useErrorText();
  // Answers arrive live; the query polls only while the stream is down.
  useTicketEvents();
  const query = useTicket(id);
  return (
    <div className="page">
      <p>
        <Link className="back-link" to={backHref}>
          ← {t('detail.back')}
        </Link>
      </p>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('detail.loadError')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <TicketBody detail={query.data} />
      )}
    </div>
  );
}

function TicketBody({ detail }: { detail: TicketDetail }) {
  const { t, i18n } = useTranslation('support');
  const { ticket, side, linkedCase, attachments } = detail;
  const session = useSession();
  const step = useTicketStep(ticket.ticketId);
  const toast = useToast();
  const errorText = useErrorText();
  const validationText = useValidationText();
  const ids = { reply: useId(), note: useId() };
  const [reply, setReply] = useState('');
  const [replyError, setReplyError] = useState<string | undefined>();
  const [files, setFiles] = useState<File[]>([]);
  const [note, setNote] = useState('');
  const can = (action: string) => (ticket.availableActions[side] as string[]).includes(action);
  const replyAction = side === 'requester' ? 'Reply' : 'Answer';
  const day = (iso: string) => new Date(iso).toLocaleDateString(i18n.language);

  function onReply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = TicketMessageText.safeParse(reply);
    if (!parsed.success) {
      setReplyError(validationText(parsed.error.issues[0]?.message));
      return;
    }
    setReplyError(undefined);
    step.mutate(
      { kind: 'reply', message: parsed.data, files },
      { onSuccess: () => { setReply(''); setFiles([]); toast.showSuccess(t('detail.sent')); }, onError: (e) => toast.showError(errorText(e)) },
    );
  }

  return (
    <>
      <h1>{ticket.subject}</h1>
      <section className="panel" aria-label={t('detail.about')}>
        <dl className="facts">
          <dt>{t('list.status')}</dt>
          <dd data-testid="ticket-status">{t(`statuses.${ticket.status}`)}</dd>
          <dt>{t('list.category')}</dt>
          <dd>{t(`categories.${ticket.category}`)}</dd>
          {ticket.closesAt ? (
            <>
              <dt>{t('detail.closesOn')}</dt>
              <dd>{day(ticket.closesAt)}</dd>
            </>
          ) : null}
          {side === 'staff' ? (
            <>
              <dt>{t('detail.firstAnswerDue')}</dt>
              <dd>
                {day(ticket.firstAnswerDueAt)}
                {ticket.escalated ? ` · ${t('list.escalated')}` : ''}
              </dd>
            </>
          ) : null}
        </dl>
      </section>
      {linkedCase ? (
        <section className="panel" aria-labelledby={`${ids.reply}-case`}>
          <h2 id={`${ids.reply}-case`}>{t('detail.case', { kind: t(`caseKinds.${linkedCase.kind}`) })}</h2>
          <dl className="facts">
            {linkedCase.title ? (<><dt>{t('detail.caseTitle')}</dt><dd>{linkedCase.title}</dd></>) : null}
            {linkedCase.logNumber ? (<><dt>{t('detail.logNumber')}</dt><dd>{linkedCase.logNumber}</dd></>) : null}
            {linkedCase.status ? (<><dt>{t('list.status')}</dt><dd>{linkedCase.status}</dd></>) : null}
            {linkedCase.step ? (<><dt>{t('detail.step')}</dt><dd>{linkedCase.step}</dd></>) : null}
          </dl>
          {linkedCase.kind === 'lease_up' ? <Link to={paths.app.application.getHref(linkedCase.id)}>{t('detail.openCase')}</Link> : null}
        </section>
      ) : null}
      <TicketThread ticketId={ticket.ticketId} messages={ticket.messages} attachments={attachments ?? []} mySide={side} />
      {can(replyAction) ? (
        <form className="panel" onSubmit={onReply} noValidate>
          <div className="field">
            <label htmlFor={ids.reply}>{side === 'requester' ? t('detail.replyLabel') : t('detail.answerLabel')}</label>
            <textarea id={ids.reply} rows={4} maxLength={4000} value={reply} aria-invalid={Boolean(replyError)} aria-describedby={replyError ? `${ids.reply}-error` : undefined} onChange={(e) => setReply(e.target.value)} />
            {replyError ? <p id={`${ids.reply}-error`} className="field-error">{replyError}</p> : null}
          </div>
          <AttachFiles files={files} onChange={setFiles} />
          <button type="submit" className="button button-primary" disabled={step.isPending}>
            {t('detail.send')}
          </button>
        </form>
      ) : ticket.status === 'closed' ? (
        <p role="status">{t('detail.closed')}</p>
      ) : null}
      {side === 'staff' ? (
        <section className="panel" aria-label={t('detail.staffActions')}>
          {session && ticket.assigneeUserId === session.user.userId ? (
            <p>{t('detail.assignedToYou')}</p>
          ) : can('Assign') && session ? (
            <button type="button" className="button button-secondary" disabled={step.isPending} onClick={() => step.mutate({ kind: 'assign', assigneeUserId: session.user.userId }, { onError: (e) => toast.showError(errorText(e)) })}>
              {t('detail.assignToMe')}
            </button>
          ) : null}
          {can('Resolve') ? (
            <div className="field">
              <label htmlFor={ids.note}>{t('detail.resolveNote')}</label>
              <textarea id={ids.note} rows={2} maxLength={4000} value={note} onChange={(e) => setNote(e.target.value)} />
              <button type="button" className="button button-secondary" disabled={step.isPending} onClick={() => step.mutate({ kind: 'resolve', note: note.trim() || undefined }, { onSuccess: () => setNote(''), onError: (e) => toast.showError(errorText(e)) })}>
                {t('detail.resolve')}
              </button>
            </div>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
