import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALLOWED_MIME_TYPES, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from '../lib/domain';

/** What the server will refuse anyway (it reads the type from the content): said before sending, in the reader's language. */
export function useFileProblem(): (files: File[]) => string | undefined {
  const { t } = useTranslation('support');
  const { t: common } = useTranslation('common');
  return (files) => {
    if (files.length > MAX_FILES_PER_UPLOAD) return t('attachments.tooMany', { max: MAX_FILES_PER_UPLOAD });
    if (files.some((f) => f.size > MAX_FILE_BYTES)) return common('errors.fileTooLarge');
    if (files.some((f) => f.size === 0)) return common('validation.fileRequired');
    if (files.some((f) => f.type && !(ALLOWED_MIME_TYPES as readonly string[]).includes(f.type))) return common('errors.invalidFile');
    return undefined;
  };
}

/**
 * The attach control of the new-ticket form and the reply box: a labelled file input (keyboard
 * usable as is), the chosen files with a remove button each, and what is wrong with them before
 * anything is sent. `files` empty clears the input (after a send).
 */
export function AttachFiles({ files, onChange }: { files: File[]; onChange: (files: File[]) => void }) {
  const { t } = useTranslation('support');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const problemOf = useFileProblem();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (files.length === 0 && input.current) input.current.value = '';
  }, [files.length]);
  const choose = (next: File[]) => {
    const problem = problemOf(next);
    setError(problem);
    onChange(problem ? [] : next);
    if (problem && input.current) input.current.value = '';
  };
  // The input shows what will be sent: a removed file leaves its list too.
  const remove = (index: number) => {
    const next = files.filter((_, j) => j !== index);
    if (input.current) {
      const list = new DataTransfer();
      for (const f of next) list.items.add(f);
      input.current.files = list.files;
    }
    choose(next);
    input.current?.focus();
  };
  return (
    <div className="field">
      <label htmlFor={id}>{t('attachments.add')}</label>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        accept={ALLOWED_MIME_TYPES.join(',')}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={Boolean(error)}
        onChange={(e) => choose([...(e.target.files ?? [])])}
      />
      <p id={`${id}-hint`} className="field-hint">
        {t('attachments.hint', { max: MAX_FILES_PER_UPLOAD })}
      </p>
      {files.length ? (
        <ul className="attachment-list" aria-label={t('attachments.chosen')}>
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`}>
              {f.name}{' '}
              <button type="button" className="button button-link" aria-label={t('attachments.remove', { name: f.name })} onClick={() => remove(i)}>
                {t('attachments.removeShort')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
