import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../../components/ui/toast';
import { paths } from '../../../config/paths';
import { CreateSupportTicketBody, SUPPORT_TICKET_CATEGORIES, type SupportCaseKind, type SupportTicketCategory } from '../../../lib/domain';
import { useErrorText, useValidationText } from '../../../lib/validation-text';
import { FaqSuggestions } from '../../../components/faq/faq-suggestions';
import { useCreateTicket } from '../api/support-tickets';
import { AttachFiles } from '../../../components/attach-files';

const CATEGORY_OF_CASE: Record<SupportCaseKind, SupportTicketCategory> = { lease_up: 'application', recertification: 'recertification', relocation: 'relocation' };

/** Opens a ticket: category, subject and message; from a case ('contact support') the case goes with it. */
export function NewTicketForm({ linkedCase }: { linkedCase: { kind: SupportCaseKind; id: string } | null }) {
  const { t } = useTranslation('support');
  const ids = { category: useId(), subject: useId(), message: useId() };
  const [category, setCategory] = useState<SupportTicketCategory | ''>(linkedCase ? CATEGORY_OF_CASE[linkedCase.kind] : '');
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const create = useCreateTicket();
  const toast = useToast();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const validationText = useValidationText();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = CreateSupportTicketBody.safeParse({ category: category || undefined, subject, message, ...(linkedCase ? { caseKind: linkedCase.kind, caseId: linkedCase.id } : {}) });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), validationText(i.message)])));
      return;
    }
    setErrors({});
    create.mutate({ body: parsed.data, files }, {
      onSuccess: (ticket) => {
        toast.showSuccess(t('form.created'));
        void navigate(paths.app.supportTicket.getHref(ticket.ticketId));
      },
      onError: (error) => toast.showError(errorText(error)),
    });
  }

  const describedBy = (field: string) => (errors[field] ? `${ids[field as keyof typeof ids]}-error` : undefined);
  const errorLine = (field: keyof typeof ids) =>
    errors[field] ? (
      <p id={`${ids[field]}-error`} className="field-error">
        {errors[field]}
      </p>
    ) : null;
  return (
    <form className="panel" onSubmit={onSubmit} noValidate aria-labelledby={`${ids.category}-title`}>
      <h2 id={`${ids.category}-title`}>{t('form.title')}</h2>
      {linkedCase ? <p>{t('form.aboutCase', { kind: t(`caseKinds.${linkedCase.kind}`) })}</p> : null}
      <div className="field">
        <label htmlFor={ids.category}>{t('form.category')}</label>
        <select id={ids.category} value={category} aria-invalid={Boolean(errors.category)} aria-describedby={describedBy('category')} onChange={(e) => setCategory(e.target.value as SupportTicketCategory)}>
          <option value="">{t('form.chooseCategory')}</option>
          {SUPPORT_TICKET_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`categories.${c}`)}
            </option>
          ))}
        </select>
        {errorLine('category')}
      </div>
      <div className="field">
        <label htmlFor={ids.subject}>{t('form.subject')}</label>
        <input id={ids.subject} value={subject} maxLength={150} aria-invalid={Boolean(errors.subject)} aria-describedby={describedBy('subject')} onChange={(e) => setSubject(e.target.value)} />
        {errorLine('subject')}
      </div>
      <div className="field">
        <label htmlFor={ids.message}>{t('form.message')}</label>
        <textarea id={ids.message} rows={5} value={message} maxLength={4000} aria-invalid={Boolean(errors.message)} aria-describedby={describedBy('message')} onChange={(e) => setMessage(e.target.value)} />
        {errorLine('message')}
      </div>
      <AttachFiles files={files} onChange={setFiles} />
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {t('form.send')}
      </button>
      {/* After Send, so the keyboard path from the question to Send stays short (past the optional files); read before sending. */}
      <FaqSuggestions text={`${subject} ${message}`} />
    </form>
  );
}
