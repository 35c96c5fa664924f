import { useTranslation } from 'react-i18next';
import { Field, endOfDay, type ActionForm } from './form-kit';

/** The manager asks for more documents: one type per line, an optional note and due date. */
export const RequestAdditionalDocuments: ActionForm = {
  Fields: function RequestAdditionalDocumentsFields({ id }) {
    const { t } = useTranslation('leaseupApplications');
    return (
      <>
        <Field id={id} name="documentTypes" label={t('form.documentTypes')}>
          <textarea id={`${id}-documentTypes`} name="documentTypes" rows={3} required />
        </Field>
        <Field id={id} name="note" label={t('form.note')}>
          <input id={`${id}-note`} name="note" maxLength={2000} />
        </Field>
        <Field id={id} name="dueDate" label={t('form.dueDate')}>
          <input id={`${id}-dueDate`} name="dueDate" type="date" />
        </Field>
      </>
    );
  },
  read: (form) => {
    const documentTypes = form.lines('documentTypes');
    const due = form.text('dueDate');
    if (!documentTypes.length) return null;
    return { documentTypes, ...(form.text('note') ? { note: form.text('note') } : {}), ...(due ? { dueAt: endOfDay(due) } : {}) };
  },
};
