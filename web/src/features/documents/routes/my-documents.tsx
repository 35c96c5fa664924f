import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { DOCUMENT_TYPES } from '../../../lib/domain';
import { useErrorText } from '../../../lib/validation-text';
import { useDocuments, type DocumentFilters } from '../api/documents';
import { DocumentActions } from '../components/document-actions';
import { SentenceWithText } from '../../../components/translatable-text';
import { formatDate } from '../../../lib/format';

/** `/myDocument` (spec section 2): the household's documents with search and filters, preview and delete. */
export function MyDocumentsRoute() {
  const { t } = useTranslation(['mydocument', 'lookups']);
  usePageTitle(t('mydocument:title'));
  const errorText = useErrorText();
  const [draft, setDraft] = useState<DocumentFilters>({});
  const [filters, setFilters] = useState<DocumentFilters>({});
  const [problem, setProblem] = useState<string | null>(null);
  const documents = useDocuments(filters);


  return (
    <div className="page">
      <h1>{t('mydocument:title')}</h1>
      <form className="filters" role="search" onSubmit={(e) => { e.preventDefault(); setFilters(draft); }}>
        <div className="field">
          <label htmlFor="doc-search">{t('mydocument:search')}</label>
          <input id="doc-search" type="search" value={draft.search ?? ''} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor="doc-type-filter">{t('mydocument:type')}</label>
          <select id="doc-type-filter" value={draft.documentType ?? ''} onChange={(e) => setDraft({ ...draft, documentType: e.target.value || undefined })}>
            <option value="">{t('mydocument:all')}</option>
            {DOCUMENT_TYPES.map((d) => <option key={d} value={d}>{t(`lookups:documentType.${d}` as never)}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="doc-status-filter">{t('mydocument:status')}</label>
          <select id="doc-status-filter" value={draft.status ?? ''} onChange={(e) => setDraft({ ...draft, status: e.target.value || undefined })}>
            <option value="">{t('mydocument:all')}</option>
            <option value="Uploaded">{t('mydocument:statuses.Uploaded')}</option>
            <option value="Pending">{t('mydocument:statuses.Pending')}</option>
          </select>
        </div>
        <button type="submit" className="button button-primary">{t('mydocument:apply')}</button>
      </form>
      {problem ? <p className="form-error" role="alert">{problem}</p> : null}
      {documents.isPending ? <Loading /> : documents.isError ? (
        <LoadError title={t('mydocument:loadFailed')} detail={errorText(documents.error)} onRetry={() => void documents.refetch()} />
      ) : documents.data.length === 0 ? (
        <div className="empty" role="status"><p className="empty-title">{t('mydocument:empty')}</p></div>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('mydocument:title')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('mydocument:columns.name')}</th>
                <th scope="col">{t('mydocument:columns.type')}</th>
                <th scope="col">{t('mydocument:columns.member')}</th>
                <th scope="col">{t('mydocument:columns.uploaded')}</th>
                <th scope="col">{t('mydocument:columns.status')}</th>
                <th scope="col">{t('mydocument:columns.review')}</th>
                <th scope="col">{t('mydocument:columns.reason')}</th>
                <th scope="col">{t('mydocument:columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {documents.data.map((d) => (
                <tr key={d.id}>
                  <td>{d.fileName} ({d.fileType})</td>
                  <td>{t(`lookups:documentType.${d.documentTypeName}` as never)}</td>
                  <td>{d.houseHoldMemberName ?? '—'}</td>
                  <td>{d.uploadDate ? formatDate(d.uploadDate) : '—'}</td>
                  <td>{t(`mydocument:statuses.${d.status}`)}</td>
                  <td>{d.rejectedByManager ? <SentenceWithText text={d.rejectionReason ?? ''} sentence={(reason) => t('mydocument:rejected', { reason })} /> : d.needsReview ? t('mydocument:needsReview') : '—'}</td>
                  <td>{d.discrepancyReason ?? d.reviewReason ?? '—'}</td>
                  <td>
                    <DocumentActions document={d} onProblem={setProblem} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
