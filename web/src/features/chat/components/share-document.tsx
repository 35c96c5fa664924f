import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ALLOWED_MIME_TYPES, type ChatMessage, type UploadedDocument } from '../../../lib/domain';
import { postMultipart } from '../../../lib/multipart';
import { useErrorText } from '../../../lib/validation-text';
import { useFileProblem } from '../../../components/attach-files';
import { chatKey } from '../api/chat';

/**
 * The chat window's attach button: the household sends a document to the office it is
 * talking with through `POST /api/ChatbotBridge/upload-document`, which files it in My Documents
 * (type "other") and leaves a message in the conversation. A button opens the file chooser (Enter
 * or Space); what is refused is said under it in the reader's language.
 */
export function ShareDocument({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation('support');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const client = useQueryClient();
  const problemOf = useFileProblem();
  const errorText = useErrorText();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const share = useMutation({
    mutationFn: (files: File[]) => postMultipart<{ documents: UploadedDocument[]; message: ChatMessage }>('/ChatbotBridge/upload-document', { organizationId, documentType: 'other' }, files),
    onSuccess: (result) => {
      setDone(t('chat.shared', { names: result.documents.map((d) => d.fileName).join(', ') }));
      void client.invalidateQueries({ queryKey: chatKey });
      void client.invalidateQueries({ queryKey: ['household', 'documents'] });
    },
    onError: (e) => setError(errorText(e)),
  });

  function onChoose(files: File[]) {
    if (input.current) input.current.value = '';
    setDone(undefined);
    if (files.length === 0) return;
    const problem = problemOf(files);
    setError(problem);
    if (!problem) share.mutate(files);
  }

  return (
    <div className="chat-attach">
      <button type="button" className="button button-secondary" disabled={share.isPending} aria-describedby={error ? `${id}-error` : `${id}-hint`} onClick={() => input.current?.click()}>
        {share.isPending ? t('chat.attaching') : t('chat.attach')}
      </button>
      <input ref={input} type="file" multiple hidden accept={ALLOWED_MIME_TYPES.join(',')} data-testid="chat-attach-input" onChange={(e) => onChoose([...(e.target.files ?? [])])} />
      <p id={`${id}-hint`} className="field-hint">
        {t('chat.attachHint')}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <p role="status" className="field-hint">
        {done ?? ''}
      </p>
    </div>
  );
}
