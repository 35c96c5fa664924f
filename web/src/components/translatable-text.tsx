import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { api } from '../lib/api-client';
import { useErrorText } from '../lib/errors';
import type { Translation, TranslatorStatus } from '../../../domain/translator';

/** Whether the portal has a translation server: asked once per session. */
export function useTranslatorAvailable(): boolean {
  const query = useQuery({
    queryKey: ['translator', 'status'],
    queryFn: ({ signal }) => api.get<TranslatorStatus>('/Translator/status', { signal }),
    staleTime: Infinity,
    retry: false,
  });
  return query.data?.available === true;
}

/**
 * Free text someone wrote to the reader (a manager's reason, a ticket reply, a chat message), with
 * a "Translate" button that shows it in the reader's language and "Show original" one click away
 *. Without a translation server the text is shown as written, with no button.
 */
export function TranslatableText({ text, as: Tag = 'span' }: { text: string; as?: 'span' | 'p' | 'div' }) {
  // Not suspending: the buttons' texts load with the first one shown; until then the text is plain.
  const { t, ready } = useTranslation(['translator', 'common'], { useSuspense: false });
  const errorText = useErrorText();
  const available = useTranslatorAvailable();
  const [showing, setShowing] = useState<'original' | 'translation'>('original');
  const target = currentLanguage();
  const translation = useMutation({
    mutationFn: () => api.post<Translation>('/Translator', { text, target }),
    onSuccess: (result) => {
      if (result.translated) setShowing('translation');
    },
  });
  const done = translation.data?.translated && translation.data.target === target ? translation.data : null;
  const failed = translation.isError || (translation.data && !translation.data.translated);
  const shown = done && showing === 'translation' ? done.text : text;

  if (!available || !ready || !text.trim()) return <Tag>{text}</Tag>;
  return (
    <Tag className="translatable" data-testid="translatable-text">
      <span lang={done && showing === 'translation' ? target : undefined}>{shown}</span>{' '}
      {done && showing === 'translation' ? <span className="translatable-note">({t('translator:translated')})</span> : null}{' '}
      {done ? (
        <button type="button" className="link-button" onClick={() => setShowing(showing === 'translation' ? 'original' : 'translation')}>
          {showing === 'translation' ? t('translator:showOriginal') : t('translator:showTranslation')}
        </button>
      ) : (
        <button type="button" className="link-button" disabled={translation.isPending} onClick={() => translation.mutate()}>
          {translation.isPending ? t('translator:working') : t('translator:button')}
        </button>
      )}
      {failed ? (
        <span className="translatable-note" role="status">
          {' '}
          {translation.isError ? errorText(translation.error) : t('common:errors.translationUnavailable')}
        </span>
      ) : null}
    </Tag>
  );
}

const MARK = '\u2063reason\u2063';

/**
 * A translated sentence with someone's free text in it (`{{reason}}`), the free text translatable:
 * `sentence` is the catalogue text rendered with `reason` set to `TranslatableText.MARK`.
 */
export function SentenceWithText({ sentence, text }: { sentence: (mark: string) => string; text: string }) {
  const [before, after = ''] = sentence(MARK).split(MARK);
  return (
    <>
      {before}
      <TranslatableText text={text} />
      {after}
    </>
  );
}
