import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_TYPES, employerNameDiffers, fileCountProblem, requiredDocKey, type DocumentType, type IncomeView } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { uploadDocument, useDocuments } from '../../documents/api/documents';
import { useIncome, useRequiredDocs } from '../api/profile';
import { EmployerNamePrompt } from './employer-name-prompt';
import { ExtractedFigures } from './extracted-figures';
import { useValidationText } from '../../../lib/validation-text';

/** The required-documents checklist per income entry, and an upload form (type checked by the server). */
export function DocumentsTab() {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const validationText = useValidationText();
  const [payDates, setPayDates] = useState<string[]>([]);
  const client = useQueryClient();
  const required = useRequiredDocs();
  const documents = useDocuments();
  const [target, setTarget] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [other, setOther] = useState<DocumentType>('other');
  const income = useIncome();
  const [stubEmployer, setStubEmployer] = useState('');
  const [prompt, setPrompt] = useState<IncomeView | null>(null);
  // The figures of an uploaded statement or pay stub, proposed for the resident to check.
  const [review, setReview] = useState<{ id: string; documentType: 'bank_statement' | 'pay_stub' } | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const item = required.data?.find((r) => requiredDocKey(r) === target);
    const documentType = item?.documentType ?? other;
    const local = fileCountProblem(documentType, 0, files.length);
    if (local) return setProblem(validationText(local)!);
    const isPayStub = documentType === 'pay_stub';
    setBusy(true);
    setProblem(null);
    try {
      // Section 5: pay stubs are the last 6 consecutive, so each one carries its pay date.
      const uploaded = await uploadDocument({ documentType, incomeId: item?.incomeId ?? undefined, memberId: item?.memberId, payDates: isPayStub ? payDates.slice(0, files.length).join(',') : null }, files);
      if ((documentType === 'bank_statement' || documentType === 'pay_stub') && uploaded[0]) setReview({ id: uploaded[0].id, documentType });
      setFiles([]);
      setPayDates([]);
      const entry = income.data?.find((i) => i.id === item?.incomeId);
      if (entry && documentType === 'pay_stub' && 'employerName' in entry && employerNameDiffers(entry.employerName, stubEmployer)) setPrompt(entry);
      await client.invalidateQueries({ queryKey: ['household'] });
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <h3>{t('profile:documents.checklist')}</h3>
      <ul className="task-list">
        {(required.data ?? []).map((r) => (
          <li key={requiredDocKey(r)}>
            {r.memberName}: {r.incomeType ? `${t(`lookups:incomeType.${r.incomeType}` as never)} — ` : ''}{t(`lookups:documentType.${r.documentType}` as never)}{' '}
            <strong>{r.uploaded ? t('profile:documents.uploaded') : t('profile:documents.missing')}</strong>
          </li>
        ))}
      </ul>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="doc-target">{t('profile:documents.for')}</label>
          <select id="doc-target" value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">{t('profile:documents.otherDocument')}</option>
            {(required.data ?? []).map((r) => (
              <option key={requiredDocKey(r)} value={requiredDocKey(r)}>
                {r.memberName}: {t(`lookups:documentType.${r.documentType}` as never)}
              </option>
            ))}
          </select>
        </div>
        {target ? null : (
          <div className="field">
            <label htmlFor="doc-type">{t('profile:documents.type')}</label>
            <select id="doc-type" value={other} onChange={(e) => setOther(e.target.value as DocumentType)}>
              {DOCUMENT_TYPES.map((d) => <option key={d} value={d}>{t(`lookups:documentType.${d}` as never)}</option>)}
            </select>
          </div>
        )}
        {target.endsWith(':pay_stub') ? (
          <div className="field">
            <label htmlFor="doc-employer">{t('profile:documents.employerOnStub')}</label>
            <input id="doc-employer" value={stubEmployer} onChange={(e) => setStubEmployer(e.target.value)} />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="doc-files">{t('profile:documents.files')}</label>
          <input id="doc-files" type="file" multiple accept="application/pdf,image/jpeg,image/png,image/heic,image/tiff" onChange={(e) => setFiles([...(e.target.files ?? [])])} />
          {problem ? <span id="doc-files-error" className="field-error" role="alert">{problem}</span> : null}
        </div>
        {target.endsWith(':pay_stub')
          ? files.map((file, i) => (
              <div className="field" key={`${file.name}-${i}`}>
                <label htmlFor={`doc-pay-date-${i}`}>{t('profile:documents.payDate', { file: file.name })}</label>
                <input
                  id={`doc-pay-date-${i}`}
                  type="date"
                  required
                  value={payDates[i] ?? ''}
                  onChange={(e) => setPayDates((dates) => Object.assign([...dates], { [i]: e.target.value }))}
                />
              </div>
            ))
          : null}
        <button type="submit" className="button button-primary" disabled={busy}>{t('profile:documents.upload')}</button>
      </form>
      {review ? <ExtractedFigures key={review.id} documentId={review.id} documentType={review.documentType} onDone={() => setReview(null)} /> : null}
      <EmployerNamePrompt income={prompt} onPayStub={stubEmployer.trim()} onClose={() => setPrompt(null)} />
      <p className="muted">{t('profile:documents.count', { count: documents.data?.length ?? 0 })}</p>
    </div>
  );
}
