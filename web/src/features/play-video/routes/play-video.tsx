import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { currentLanguage, LANGUAGE_NAMES } from '../../../i18n';
import { LANGUAGES, VIDEOS, captionsUrl, toVideoId, videoUrl } from '../../../lib/domain-core';
import { useSession } from '../../auth/hooks/use-session';

/**
 * /play-video (spec section 2, no role needed): the how-to videos. The browser's own player
 * (keyboard operable), captions in the four languages (the reader's on by default), and the
 * transcript below.
 */
export function PlayVideoRoute() {
  const { t } = useTranslation('training');
  const [params] = useSearchParams();
  const id = toVideoId(params.get('video'));
  const session = useSession();
  usePageTitle(`${t(`videos.items.${id}.title`)} · ${t('videos.title')}`);
  const language = currentLanguage();
  const steps = Object.values(t(`videos.items.${id}.steps`, { returnObjects: true }) as Record<string, string>);
  return (
    <div className="page">
      <h1>{t('videos.title')}</h1>
      <p>{t('videos.intro')}</p>
      <nav aria-label={t('videos.listLabel')}>
        <ul className="video-list">
          {VIDEOS.map((v) => (
            <li key={v}>
              <Link to={paths.playVideo.getHref(v)} aria-current={v === id ? 'page' : undefined}>
                {t(`videos.items.${v}.title`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className="panel" aria-labelledby="video-title">
        <h2 id="video-title">{t(`videos.items.${id}.title`)}</h2>
        {/* key: a new video loads its own tracks (the browser keeps a <video>'s tracks otherwise). */}
        <video key={`${id}-${language}`} className="how-to-video" controls preload="metadata" aria-labelledby="video-title" aria-describedby="video-captions-hint" data-testid="how-to-video" data-video={id}>
          <source src={videoUrl(id)} type="video/webm" />
          {LANGUAGES.map((l) => (
            <track key={l} kind="captions" srcLang={l} label={LANGUAGE_NAMES[l]} src={captionsUrl(id, l)} default={l === language} />
          ))}
          {t('videos.notSupported')}
        </video>
        <p id="video-captions-hint">{t('videos.captionsHint')}</p>
        <h3 id="video-transcript">{t('videos.transcript')}</h3>
        <ol aria-labelledby="video-transcript" data-testid="video-transcript">
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
      <p className="hero-actions">
        {session ? (
          <>
            <Link to={paths.app.dashboard.getHref()}>{t('videos.backToDashboard')}</Link>
            <Link to={paths.app.training.getHref()}>{t('videos.backToTraining')}</Link>
          </>
        ) : (
          <Link to={paths.login.getHref()}>{t('videos.signIn')}</Link>
        )}
      </p>
    </div>
  );
}
