import { useTranslation } from 'react-i18next';
import { TranslatableText } from '../../../components/translatable-text';
import type { ApplicationDetail } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import { useLeaseUpLabels } from './labels';
import { StatusBadge } from './status-badge';

/** Spec section 2: the information panel of the application detail. */
export function ApplicationInfo({ application }: { application: ApplicationDetail }) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  return (
    <section className="panel" aria-labelledby="information-heading">
      <h2 id="information-heading">{t('detail.information')}</h2>
      <dl className="facts">
        <dt>{t('detail.logNumber')}</dt>
        <dd data-testid="log-number">{labels.logNumber(application.logNumber)}</dd>
        <dt>{t('detail.opportunity')}</dt>
        <dd>{application.opportunityName}</dd>
        {application.viewerRole === 'manager' ? (
          <>
            <dt>{t('detail.applicant')}</dt>
            <dd>{application.applicantFullName}</dd>
          </>
        ) : null}
        <dt>{t('detail.status')}</dt>
        <dd>
          <StatusBadge status={application.status} />
        </dd>
        <dt>{t('detail.dateApplied')}</dt>
        <dd>{formatDate(application.appliedAt)}</dd>
        <dt>{t('detail.currentStep')}</dt>
        <dd>{labels.step(application.currentStep)}</dd>
        {application.rejectionReason ? (
          <>
            <dt>{t('detail.rejectionReason')}</dt>
            <dd>
              <TranslatableText text={application.rejectionReason} />
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
