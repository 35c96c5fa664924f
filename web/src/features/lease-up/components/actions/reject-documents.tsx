import { useTranslation } from 'react-i18next';
import { useHouseholdDocuments } from '../../api/household-documents';
import { Field, type ActionForm } from './form-kit';

const docLabel = (d: { documentTypeName: string; fileName: string }) => `${d.documentTypeName}: ${d.fileName}`;

/** The manager rejects documents: chosen from the household's files (each with a reason), or typed as 'item: reason' lines. */
export const RejectDocuments: ActionForm = {
  Fields: function RejectDocumentsFields({ application, id }) {
    const { t } = useTranslation('leaseupApplications');
    const documents = useHouseholdDocuments(application.householdId, application.viewerRole === 'manager', true);
    const uploaded = (documents.data ?? []).filter((d) => d.fileUrl || d.uploadDate);
    return (
      <>
        {uploaded.length > 0 ? (
          <fieldset>
            <legend>{t('form.chooseDocuments')}</legend>
            {uploaded.map((d) => (
              <div key={d.id} className="field">
                <label className="choice">
                  <input type="checkbox" name="rejectDocumentId" value={d.id} /> {docLabel(d)}
                </label>
                <input type="hidden" name={`label-${d.id}`} value={docLabel(d)} />
                <input name={`reason-${d.id}`} aria-label={t('form.reasonFor', { name: docLabel(d) })} placeholder={t('confirm.reason')} maxLength={2000} />
              </div>
            ))}
          </fieldset>
        ) : null}
        <Field id={id} name="documents" label={t('form.rejectDocuments')}>
          <textarea id={`${id}-documents`} name="documents" rows={3} />
        </Field>
      </>
    );
  },
  read: (form) => {
    const chosen = form.all('rejectDocumentId').map((documentId) => ({
      item: form.text(`label-${documentId}`),
      documentId,
      ...(form.text(`reason-${documentId}`) ? { reason: form.text(`reason-${documentId}`) } : {}),
    }));
    const typed = form.lines('documents').map((line) => {
      const [item, ...reason] = line.split(':');
      return { item: item!.trim(), ...(reason.join(':').trim() ? { reason: reason.join(':').trim() } : {}) };
    });
    const documents = [...chosen, ...typed];
    return documents.length ? { documents } : null;
  },
};
