import { useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { SUPPORT_TICKET_ROLES } from '../../../config/roles';
import { useSession } from '../../auth/hooks/use-session';
import { useFaq } from '../../../lib/faq-api';
import { FaqAnswer, inLanguage, useFaqLanguage } from '../../../components/faq/faq-answer';

/** /help: the FAQ by category, searchable in any of the four languages. */
export function HelpRoute() {
  const { t } = useTranslation('support');
  usePageTitle(t('help.title'));
  const searchId = useId();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const faq = useFaq(deferred);
  const language = useFaqLanguage();
  const session = useSession();
  const canOpenTicket = Boolean(session && SUPPORT_TICKET_ROLES.includes(session.user.role));
  const categories = faq.data ?? [];

  return (
    <div className="page">
      <h1>{t('help.title')}</h1>
      <p>{t('help.intro')}</p>
      <form role="search" className="panel" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor={searchId}>{t('help.search')}</label>
          <input id={searchId} type="search" value={search} maxLength={100} onChange={(e) => setSearch(e.target.value)} />
        </div>
      </form>
      <div aria-live="polite" aria-busy={faq.isFetching}>
        {faq.isError ? <p role="alert">{t('help.loadFailed')}</p> : null}
        {faq.isSuccess && categories.length === 0 ? <p>{t('help.noMatch')}</p> : null}
        {deferred && categories.length > 0 ? <p>{t('help.matches', { count: categories.reduce((n, c) => n + c.questions.length, 0) })}</p> : null}
      </div>
      {categories.map((category) => (
        <section key={category.id} className="panel" aria-labelledby={`faq-${category.slug}`}>
          <h2 id={`faq-${category.slug}`}>{inLanguage(category.name, language)}</h2>
          {category.questions.map((question) => (
            <FaqAnswer key={question.id} question={question} />
          ))}
        </section>
      ))}
      <p>
        {t('help.stillNeedHelp')}{' '}
        {canOpenTicket ? <Link to={paths.app.supportTickets.getHref()}>{t('help.openTicket')}</Link> : null}
      </p>
    </div>
  );
}
