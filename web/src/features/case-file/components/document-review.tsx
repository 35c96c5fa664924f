import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import { useErrorText } from '../../../lib/errors';
import { DocumentDecisionInput, type CaseFileDocument, type CaseFileKind, type DocumentDecision } from '../../../lib/domain';
import { FieldError } from '../../profile/components/field-error';
import { useReviewDocument } from '../api/case-file';
import { DocumentPreview } from './document-preview';

/** One document of the case file: what it answers, its review, the preview, and accept / reject / flag. */
export function DocumentReview({ kind, caseId, document: d }: { kind: CaseFileKind; caseId: string; document: CaseFileDocument }) {
  const { t } = useTranslation(['caseFile', 'lookups']);
  const toast = useToast();
  const errorText = useErrorText();
  const review = useReviewDocument(kind, caseId);
  const [previewing, setPreviewing] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [incomeType, documentType] = d.checklistItem.includes(':') ? d.checklistItem.split(':') : [null, d.checklistItem];
  const checklist = incomeType
    ? t('caseFile:documents.checklistFor', { document: t(`lookups:documentType.${documentType}`, { defaultValue: documentType }), income: t(`lookups:incomeType.${incomeType}`, { defaultValue: incomeType }) })
    : t(`lookups:documentType.${documentType}`, { defaultValue: documentType });

  const decide = (decision: DocumentDecision, text?: string) => {
    // The same rule as the server (domain/case-file.ts): a rejection needs a reason.
    const checked = DocumentDecisionInput.safeParse({ decision, reason: text });
    if (!checked.success) return setReasonError(checked.error.issues[0]?.message);
    setReasonError(undefined);
    review.mutate(
      { documentId: d.id, decision, ...(text ? { reason: text } : {}) },
      {
        onSuccess: () => {
          toast.showSuccess(t(`caseFile:documents.saved.${decision}`));
          setRejecting(false);
          setReason('');
        },
        onError: (error) => toast.showError(errorText(error)),
      },
    );
  };
  const headingId = `document-${d.id}`;
  return (
    <li className="case-file-document" aria-labelledby={headingId} data-testid="case-file-document">
      <h4 id={headingId}>{d.fileName}</h4>
      <dl className="facts">
        <dt>{t('caseFile:documents.checklistItem')}</dt>
        <dd>{checklist}</dd>
        {d.memberName ? (
          <>
            <dt>{t('caseFile:documents.member')}</dt>
            <dd>{d.memberName}</dd>
          </>
        ) : null}
        <dt>{t('caseFile:documents.state')}</dt>
        <dd>
          <span className={`badge badge-review-${d.reviewState}`} data-testid="review-state">{t(`caseFile:reviewState.${d.reviewState}`)}</span>
        </dd>
        {d.rejectionReason ? (
          <>
            <dt>{t('caseFile:documents.rejectionReason')}</dt>
            <dd>{d.rejectionReason}</dd>
          </>
        ) : null}
        {d.householdReason ? (
          <>
            <dt>{t('caseFile:documents.householdReason')}</dt>
            <dd>{d.householdReason}</dd>
          </>
        ) : null}
      </dl>
      <p className="action-buttons">
        <button type="button" className="button button-secondary" aria-expanded={previewing} onClick={() => setPreviewing(!previewing)}>
          {previewing ? t('caseFile:documents.hidePreview', { name: d.fileName }) : t('caseFile:documents.preview', { name: d.fileName })}
        </button>
        {d.reviewState !== 'accepted' ? (
          <button type="button" className="button button-primary" disabled={review.isPending} onClick={() => decide('accept')}>{t('caseFile:documents.accept')}</button>
        ) : null}
        <button type="button" className="button button-secondary" aria-expanded={rejecting} onClick={() => setRejecting(!rejecting)}>{t('caseFile:documents.reject')}</button>
        {d.reviewState !== 'flagged' ? (
          <button type="button" className="button button-secondary" disabled={review.isPending} onClick={() => decide('flag')}>{t('caseFile:documents.flag')}</button>
        ) : null}
      </p>
      {rejecting ? (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            decide('reject', reason.trim());
          }}
        >
          <div className="field">
            <label htmlFor={`reject-reason-${d.id}`}>{t('caseFile:documents.reason')}</label>
            <textarea id={`reject-reason-${d.id}`} value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} aria-describedby={`reject-reason-${d.id}-error`} />
            <FieldError id={`reject-reason-${d.id}-error`} message={reasonError} />
          </div>
          <button type="submit" className="button button-primary" disabled={review.isPending}>{t('caseFile:documents.confirmReject')}</button>
        </form>
      ) : null}
      {previewing ? <DocumentPreview kind={kind} caseId={caseId} document={d} /> : null}
    </li>
  );
}
