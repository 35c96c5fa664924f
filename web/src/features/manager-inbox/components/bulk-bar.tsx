import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { BULK_ACTIONS, TIMELINE_STEPS, type BulkAction, type CreateBulkBatchBody, type ManagerTaskFilter, type TimelineStep } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useCreateBulkBatch } from '../api/bulk-actions';

/**
 * One action for many applications: the ones ticked in the inbox, or every application
 * matching the inbox's opportunity and step filters. Starts a batch and opens its progress page.
 */
export function BulkBar({ selected, filter }: { selected: readonly string[]; filter: ManagerTaskFilter }) {
  const { t } = useTranslation('managerInbox');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const create = useCreateBulkBatch();
  const id = useId();
  const [action, setAction] = useState<BulkAction>('requestDocument');
  const [scope, setScope] = useState<'selected' | 'filter'>('selected');
  const [documentType, setDocumentType] = useState('');
  const [text, setText] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const step = filter.step && (TIMELINE_STEPS as readonly string[]).includes(filter.step) ? (filter.step as TimelineStep) : undefined;
  const canFilter = Boolean(filter.contextId || step);
  const useFilter = scope === 'filter' && canFilter;
  if (selected.length === 0 && !canFilter) return null;

  function submit(e: FormEvent) {
    e.preventDefault();
    const selection = useFilter ? { filter: { ...(filter.contextId ? { opportunityId: filter.contextId } : {}), ...(step ? { step } : {}) } } : { applicationIds: [...selected] };
    const note = text.trim() ? { note: text.trim() } : {};
    const body: CreateBulkBatchBody =
      action === 'requestDocument'
        ? { action, documentType: documentType.trim(), ...note, selection }
        : action === 'sendReminder'
          ? { action, ...note, selection }
          : { action, reason: text.trim(), selection };
    create.mutate(body, { onSuccess: (batch) => void navigate(paths.manager.bulkBatch.getHref(batch.batchId)) });
  }

  return (
    <form className="panel bulk-bar" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h2 id={`${id}-title`}>{t('bulk.title')}</h2>
      <fieldset>
        <legend>{t('bulk.scope')}</legend>
        <label className="choice">
          <input type="radio" name={`${id}-scope`} checked={!useFilter} disabled={selected.length === 0} onChange={() => setScope('selected')} />
          {t('bulk.selected', { count: selected.length })}
        </label>
        <label className="choice">
          <input type="radio" name={`${id}-scope`} checked={useFilter} disabled={!canFilter} onChange={() => setScope('filter')} />
          {t('bulk.matching')}
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-action`}>{t('bulk.action')}</label>
        <select id={`${id}-action`} value={action} onChange={(e) => setAction(e.target.value as BulkAction)}>
          {BULK_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {t(`bulk.actions.${a}`)}
            </option>
          ))}
        </select>
      </div>
      {action === 'requestDocument' ? (
        <div className="field">
          <label htmlFor={`${id}-document`}>{t('bulk.documentType')}</label>
          <input id={`${id}-document`} required maxLength={200} value={documentType} onChange={(e) => setDocumentType(e.target.value)} />
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-text`}>{action === 'reject' ? t('bulk.reason') : t('bulk.note')}</label>
        <textarea id={`${id}-text`} required={action === 'reject'} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      {action === 'reject' ? (
        <label className="choice">
          <input type="checkbox" required checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} />
          {t('bulk.irreversible')}
        </label>
      ) : null}
      {create.isError ? (
        <p className="field-error" role="alert">
          {errorText(create.error)}
        </p>
      ) : null}
      <button type="submit" className={`button ${action === 'reject' ? 'button-danger' : 'button-primary'}`} disabled={create.isPending || (!useFilter && selected.length === 0)}>
        {t('bulk.start')}
      </button>
    </form>
  );
}
