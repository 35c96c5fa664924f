import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../../components/ui/use-page-title';

/** Spec section 2: the six training topics. */
export const TRAINING_TOPICS = ['gettingStarted', 'householdProfile', 'uploadingDocuments', 'recertificationProcess', 'eSigning', 'commonIssues'] as const;

/** /training: short guides, one per topic, readable without leaving the page. */
export function TrainingRoute() {
  const { t } = useTranslation('training');
  usePageTitle(t('title'));
  return (
    <div className="page">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      {TRAINING_TOPICS.map((topic) => (
        <details key={topic} className="panel">
          <summary>
            <h2 style={{ display: 'inline' }}>{t(`topics.${topic}.title`)}</h2>
          </summary>
          <p>{t(`topics.${topic}.body`)}</p>
        </details>
      ))}
    </div>
  );
}
