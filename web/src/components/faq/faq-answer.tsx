import { useTranslation } from 'react-i18next';
import { FAQ_LANGUAGES, type FaqLanguage, type FaqQuestion, type FaqText } from '../../lib/domain';

/** The reader's language among the FAQ's four (en when the interface is in another). */
export function useFaqLanguage(): FaqLanguage {
  const { i18n } = useTranslation();
  const language = (i18n.resolvedLanguage ?? i18n.language ?? 'en').slice(0, 2);
  return (FAQ_LANGUAGES as readonly string[]).includes(language) ? (language as FaqLanguage) : 'en';
}

export const inLanguage = (text: FaqText, language: FaqLanguage) => text[language] || text.en;

/** One question, opened to read its answer (a native disclosure: keyboard and screen-reader ready). */
export function FaqAnswer({ question, headingLevel = 3 }: { question: FaqQuestion; headingLevel?: 3 | 4 }) {
  const language = useFaqLanguage();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <details className="faq-question">
      <summary>
        <Heading className="faq-question-title">{inLanguage(question.question, language)}</Heading>
      </summary>
      <p>{inLanguage(question.answer, language)}</p>
    </details>
  );
}
