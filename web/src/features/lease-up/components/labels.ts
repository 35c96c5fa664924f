import { useTranslation } from 'react-i18next';
import type { ApplicationStatus, LeaseUpAction, PendingTask, StepState, TimelineStep } from '../../../lib/domain';

/** Translated names of statuses, steps, step states and actions (leaseupApplications namespace). */
export function useLeaseUpLabels() {
  const { t } = useTranslation('leaseupApplications');
  return {
    status: (status: ApplicationStatus) => t(`status.${status}`),
    step: (step: TimelineStep) => t(`steps.${step}`),
    stepState: (state: StepState) => t(`stepState.${state}`),
    action: (action: LeaseUpAction) => t(`actions.${action}`),
    task: (action: PendingTask['action']) => t(`actions.${action}`),
    logNumber: (logNumber: string | null) => logNumber ?? t('logNumberPending'),
  };
}
