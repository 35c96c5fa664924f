import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { useSession } from '../../auth/hooks/use-session';

const STEPS = ['step1', 'step2', 'step3', 'step4'] as const;

/** / and /home: a short welcome, the ways in (opportunities, create an account, log in) and how the lottery works. */
export function LandingRoute() {
  const { t } = useTranslation('common');
  usePageTitle('');
  const session = useSession();
  return (
    <div className="page hero">
      <h1>{t('landing.title')}</h1>
      <p className="lead">{t('landing.intro')}</p>
      <p className="hero-actions">
        <Link to={paths.public.opportunities.getHref()} className="button button-primary button-large">
          {t('landing.browse')}
        </Link>
        {session ? null : (
          <>
            <Link to={paths.auth.register.getHref()} className="button button-secondary button-large">
              {t('landing.createAccount')}
            </Link>
            <Link to={paths.login.getHref()} className="button button-secondary button-large">
              {t('landing.signIn')}
            </Link>
          </>
        )}
      </p>
      <section className="panel how-it-works" aria-labelledby="how-it-works">
        <h2 id="how-it-works">{t('landing.howTitle')}</h2>
        <ol>
          {STEPS.map((step) => (
            <li key={step}>{t(`landing.${step}`)}</li>
          ))}
        </ol>
      </section>
    </div>
  );
}
