import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { useFaqSuggestions } from '../../lib/faq-api';
import { FaqAnswer } from './faq-answer';

/**
 * Answers offered while a person writes a ticket ("offered before a ticket is
 * opened"), from what they have typed so far. Announced politely so a screen reader hears them.
 */
export function FaqSuggestions({ text }: { text: string }) {
  const { t } = useTranslation('support');
  const suggestions = useFaqSuggestions(useDeferredValue(text.slice(0, 1000)));
  const items = text.trim().length >= 4 ? (suggestions.data ?? []) : [];
  return (
    <div aria-live="polite">
      {items.length > 0 ? (
        <section className="faq-suggestions" aria-labelledby="faq-suggestions-title">
          <h3 id="faq-suggestions-title">{t('help.suggestionsTitle')}</h3>
          <p>{t('help.suggestionsIntro')}</p>
          {items.map((question) => (
            <FaqAnswer key={question.id} question={question} headingLevel={4} />
          ))}
        </section>
      ) : null}
    </div>
  );
}
