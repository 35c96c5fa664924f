import { useEffect, useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import type { ExtractableDocumentType, ExtractedEmployerView, ExtractionView, MemberView } from '../../../lib/domain';
import { useErrorText, useValidationText } from '../../../lib/validation-text';
import { uploadDocument } from '../../documents/api/documents';
import { useIncome, useProfile } from '../api/profile';
import { ReviewForm } from './extracted-figures-review';

/**
 * After a bank statement or pay stub is uploaded, its figures are read off the request
 * path (/api/v1/account-details starts the reading; this polls GetAiExtractedData) and proposed:
 * each one editable, the ones read with low confidence highlighted. Only "Confirm and save" saves,
 * through the asset and income forms' own schemas (SaveAiExtractedData). Nothing here says
 * anything about eligibility: these are the figures printed on the document.
 */
const readingQuery = (documentId: string, enabled: boolean) => ({
  queryKey: ['extraction', documentId],
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<ExtractionView>('/HouseholdAssets/GetAiExtractedData', { query: { documentId }, signal }),
  enabled,
  refetchInterval: (q: { state: { data?: ExtractionView } }) => (q.state.data?.status === 'pending' ? 1500 : false),
});

export function ExtractedFigures({ documentId, documentType, members, onDone }: { documentId: string; documentType: ExtractableDocumentType; members?: MemberView[]; onDone: () => void }) {
  const { t } = useTranslation(['profile', 'lookups']);
  const errorText = useErrorText();
  const validationText = useValidationText();
  const client = useQueryClient();
  const [requested, setRequested] = useState(false);
  const [requestError, setRequestError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.post<ExtractionView>('/v1/account-details', { documentId }).then(
      () => live && setRequested(true),
      (error: unknown) => live && setRequestError(errorText(error)),
    );
    return () => {
      live = false;
    };
  }, [documentId]);
  const reading = useQuery(readingQuery(documentId, requested));
  const employer = useQuery({
    queryKey: ['extraction', documentId, 'employer'],
    queryFn: ({ signal }) => api.get<ExtractedEmployerView>('/HouseholdAssets/GetExtractedEmployer', { query: { documentId }, signal }),
    enabled: documentType === 'pay_stub' && reading.data?.status === 'ready',
  });
  const income = useIncome();
  const profile = useProfile();

  const view = reading.data;
  const title = t('profile:extraction.title');
  if (requestError) return <section className="panel extracted" aria-label={title}><p className="form-error" role="alert">{requestError}</p></section>;
  if (!view || view.status === 'pending') {
    return (
      <section className="panel extracted" aria-label={title}>
        <p role="status">{t('profile:extraction.reading')}</p>
      </section>
    );
  }
  if (view.status === 'failed') {
    return (
      <section className="panel extracted" aria-label={title}>
        <p role="alert">{validationText(view.failure) ?? t('profile:extraction.failed')}</p>
        <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:extraction.close')}</button>
      </section>
    );
  }
  if (view.confirmedAt) {
    return (
      <section className="panel extracted" aria-label={title}>
        <p role="status">{t('profile:extraction.saved')}</p>
        <button type="button" className="button button-secondary" onClick={onDone}>{t('profile:extraction.close')}</button>
      </section>
    );
  }
  if (documentType === 'pay_stub' && employer.isPending) return <section className="panel extracted" aria-label={title}><p role="status">{t('profile:extraction.reading')}</p></section>;
  return (
    <ReviewForm
      key={view.id}
      view={view}
      documentType={documentType}
      members={members ?? profile.data?.members ?? []}
      employer={employer.data ?? null}
      linkedIncome={(income.data ?? []).find((i) => i.id === employer.data?.incomeId) ?? null}
      onSaved={() => {
        void client.invalidateQueries({ queryKey: ['household'] });
        void client.invalidateQueries({ queryKey: ['extraction', documentId] });
      }}
      onDone={onDone}
    />
  );
}

/**
 * The upload that starts a reading, on the assets screen (a bank statement) and the income screen
 * (a pay stub: its pay date, and the employment income it belongs to, if any).
 */
export function ReadFiguresUpload({ documentType, members }: { documentType: ExtractableDocumentType; members?: MemberView[] }) {
  const { t } = useTranslation('profile');
  const errorText = useErrorText();
  const income = useIncome();
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [payDate, setPayDate] = useState('');
  const [incomeId, setIncomeId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [documentId, setDocumentId] = useState<string | null>(null);
  const ids = { file: useId(), payDate: useId(), income: useId() };
  const jobs = (income.data ?? []).filter((i) => i.incomeType === 'employment');

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem(t('extraction.chooseFile'));
    setBusy(true);
    setProblem(null);
    try {
      const [doc] = await uploadDocument({ documentType, incomeId: incomeId || null, payDates: documentType === 'pay_stub' ? payDate : null }, [file]);
      await client.invalidateQueries({ queryKey: ['household'] });
      setDocumentId(doc!.id);
      setFile(null);
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  if (documentId) return <ExtractedFigures documentId={documentId} documentType={documentType} members={members} onDone={() => setDocumentId(null)} />;
  const heading = t(documentType === 'bank_statement' ? 'extraction.readStatement' : 'extraction.readPayStub');
  return (
    <form className="form panel" aria-label={heading} onSubmit={submit}>
      <h3>{heading}</h3>
      <p className="muted">{t('extraction.uploadHint')}</p>
      {documentType === 'pay_stub' ? (
        <>
          <div className="field">
            <label htmlFor={ids.income}>{t('extraction.forIncome')}</label>
            <select id={ids.income} value={incomeId} onChange={(e) => setIncomeId(e.target.value)}>
              <option value="">{t('extraction.newIncome')}</option>
              {jobs.map((i) => <option key={i.id} value={i.id}>{i.memberName}: {'employerName' in i ? i.employerName : ''}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.payDate}>{t('extraction.uploadPayDate')}</label>
            <input id={ids.payDate} type="date" required value={payDate} onChange={(e) => setPayDate(e.target.value)} />
          </div>
        </>
      ) : null}
      <div className="field">
        <label htmlFor={ids.file}>{t('documents.files')}</label>
        <input id={ids.file} type="file" accept="application/pdf,image/jpeg,image/png,image/tiff" aria-describedby={problem ? `${ids.file}-error` : undefined} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        {problem ? <span id={`${ids.file}-error`} className="field-error" role="alert">{problem}</span> : null}
      </div>
      <button type="submit" className="button button-primary" disabled={busy}>{t('extraction.uploadAndRead')}</button>
    </form>
  );
}
