import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REASON_MESSAGE, ReviewReasonInput, type UploadedDocument } from '../../../lib/domain';
import { api } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/validation-text';
import { ConfirmDialog } from '../../profile/components/confirm-dialog';
import { FieldError } from '../../profile/components/field-error';
import { deleteDocument, openDocument, uploadDocument } from '../api/documents';

/**
 * A document's actions (spec sections 4 and 7): open, delete after confirmation, and for a document
 * the manager rejected or flagged, give a reason or upload it again with a reason.
 */
export function DocumentActions({ document: d, onProblem }: { document: UploadedDocument; onProblem: (text: string | null) => void }) {
  const { t } = useTranslation('mydocument');
  const errorText = useErrorText();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [answering, setAnswering] = useState(false);
  const [reason, setReason] = useState('');
  const [file, setFile] = useState<File | null>(null);
  // A new pay stub carries its pay date (spec section 5: the last 6 consecutive).
  const [payDate, setPayDate] = useState('');
  const isPayStub = d.documentTypeName === 'pay_stub';
  const [reasonError, setReasonError] = useState<string | undefined>();
  const refresh = () => client.invalidateQueries({ queryKey: ['household'] });
  const run = async (work: () => Promise<unknown>, failed: string) => {
    onProblem(null);
    try {
      await work();
      await refresh();
      return true;
    } catch (error) {
      onProblem(`${failed} ${errorText(error)}`);
      return false;
    }
  };
  const submitAnswer = async (event: React.FormEvent) => {
    event.preventDefault();
    // The same rule as the server: a reason is required for a re-upload or a review answer.
    const checked = ReviewReasonInput.safeParse({ documentId: d.id, reason });
    if (!checked.success) return setReasonError(REASON_MESSAGE);
    setReasonError(undefined);
    const ok = await run(
      () => (file
        ? uploadDocument({ documentType: d.documentTypeName, memberId: d.houseHoldMemberId, incomeId: d.householdIncomeId, replacesDocumentId: d.id, reason, ...(isPayStub && payDate ? { payDates: payDate } : {}) }, [file])
        : api.put('/Document/DocumentReviewReason', checked.data)),
      t('answerFailed'),
    );
    if (ok) setAnswering(false);
  };

  return (
    <div className="action-buttons">
      <button type="button" className="button button-secondary" onClick={() => void run(() => openDocument(d.id), t('openFailed'))}>{t('open')}</button>
      <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>{t('delete')}</button>
      {d.rejectedByManager || d.needsReview ? (
        <button type="button" className="button button-primary" onClick={() => setAnswering(!answering)}>{t('answer')}</button>
      ) : null}
      {answering ? (
        <form className="form" onSubmit={submitAnswer}>
          <div className="field">
            <label htmlFor={`reason-${d.id}`}>{t('reason')}</label>
            <textarea id={`reason-${d.id}`} value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby={`reason-${d.id}-error`} />
            <FieldError id={`reason-${d.id}-error`} message={reasonError} />
          </div>
          <div className="field">
            <label htmlFor={`file-${d.id}`}>{t('newFile')}</label>
            <input id={`file-${d.id}`} type="file" accept="application/pdf,image/jpeg,image/png,image/heic,image/tiff" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          </div>
          {isPayStub && file ? (
            <div className="field">
              <label htmlFor={`pay-date-${d.id}`}>{t('payDate')}</label>
              <input id={`pay-date-${d.id}`} type="date" value={payDate} onChange={(e) => setPayDate(e.target.value)} />
            </div>
          ) : null}
          <button type="submit" className="button button-primary">{t('send')}</button>
        </form>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={t('deleteTitle')}
        body={t('deleteBody', { name: d.fileName })}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run(() => deleteDocument(d.id), t('deleteFailed'));
        }}
      />
    </div>
  );
}
