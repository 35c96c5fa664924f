import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import type { VideoId } from '../../../lib/domain-core';

/** Spec section 2: the six training topics. */
export const TRAINING_TOPICS = ['gettingStarted', 'householdProfile', 'uploadingDocuments', 'recertificationProcess', 'eSigning', 'commonIssues'] as const;

/** The how-to video of each topic that has one. */
const TOPIC_VIDEOS: Partial<Record<(typeof TRAINING_TOPICS)[number], VideoId>> = {
  gettingStarted: 'gettingStarted',
  householdProfile: 'householdProfile',
  uploadingDocuments: 'uploadingDocuments',
  recertificationProcess: 'recertification',
  eSigning: 'eSigning',
};

/** /training: short guides, one per topic, readable without leaving the page, and their videos. */
export function TrainingRoute() {
  const { t } = useTranslation('training');
  usePageTitle(t('title'));
  return (
    <div className="page">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <p>
        <Link to={paths.playVideo.getHref()} className="button button-primary">
          {t('videos.watchAll')}
        </Link>
      </p>
      {TRAINING_TOPICS.map((topic) => (
        <details key={topic} className="panel">
          <summary>
            <h2 style={{ display: 'inline' }}>{t(`topics.${topic}.title`)}</h2>
          </summary>
          <p>{t(`topics.${topic}.body`)}</p>
          {TOPIC_VIDEOS[topic] ? (
            <p>
              <Link to={paths.playVideo.getHref(TOPIC_VIDEOS[topic])}>{t('videos.watchTopic', { title: t(`topics.${topic}.title`) })}</Link>
            </p>
          ) : null}
        </details>
      ))}
    </div>
  );
}
