import { useTranslation } from 'react-i18next';
import { useHouseholdDocuments } from '../../api/household-documents';
import { Field, type ActionForm } from './form-kit';

/** The household answers each outstanding document: a file it uploaded, or a reason. */
export const SubmitAdditionalDocuments: ActionForm = {
  Fields: function SubmitAdditionalDocumentsFields({ application, id }) {
    const { t } = useTranslation('leaseupApplications');
    const documents = useHouseholdDocuments(application.householdId, application.viewerRole === 'manager', true);
    const uploaded = (documents.data ?? []).filter((d) => d.fileUrl || d.uploadDate);
    return (
      <>
        <p>{t('form.answerEach')}</p>
        {application.outstandingDocuments.map((d, i) => (
          <fieldset key={d.item}>
            <legend>{`${d.item}${d.reason ? ` (${d.reason})` : ''}`}</legend>
            <Field id={id} name={`file-${i}`} label={t('form.uploadedFile')}>
              <select id={`${id}-file-${i}`} name={`file-${i}`} defaultValue="">
                <option value="">{t('form.noFile')}</option>
                {uploaded.map((u) => (
                  <option key={u.id} value={u.id}>
                    {`${u.documentTypeName}: ${u.fileName}`}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={id} name={`answer-${i}`} label={t('form.orReason')}>
              <textarea id={`${id}-answer-${i}`} name={`answer-${i}`} rows={2} />
            </Field>
          </fieldset>
        ))}
      </>
    );
  },
  read: (form, application) => {
    const documents = application.outstandingDocuments.map((d, i) => ({
      item: d.item,
      ...(form.text(`file-${i}`) ? { documentId: form.text(`file-${i}`) } : {}),
      ...(form.text(`answer-${i}`) ? { reason: form.text(`answer-${i}`) } : {}),
    }));
    return documents.every((d) => d.documentId || d.reason) ? { documents } : null;
  },
};
