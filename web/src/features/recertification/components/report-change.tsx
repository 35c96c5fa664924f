import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import { api } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/errors';
import type { RecertificationCase } from '../../../lib/domain';
import { recertificationQueryKey } from '../api/recertification';

/** An interim recertification, started by the tenant on an income or household change. */
export function ReportChange() {
  const { t } = useTranslation('recertification');
  const client = useQueryClient();
  const toast = useToast();
  const errorText = useErrorText();
  const start = useMutation({
    mutationFn: (reason: 'income_change' | 'household_change') => api.post<{ caseId: string }>('/TenantRecertificationStatus/interim', { reason }),
    onSuccess: async ({ caseId }) => {
      toast.showSuccess(t('interim.started'));
      // Read the new case from its workflow at once (the status list catches up when its projection lands).
      client.setQueryData(recertificationQueryKey, await api.get<RecertificationCase>(`/TenantRecertificationStatus/case/${encodeURIComponent(caseId)}`));
      void client.invalidateQueries({ queryKey: ['dashboard'] });
    },
    onError: (error) => toast.showError(errorText(error)),
  });
  return (
    <section className="panel">
      <h2>{t('interim.title')}</h2>
      <p>{t('interim.intro')}</p>
      <p className="hero-actions">
        <button type="button" className="button button-secondary" disabled={start.isPending} onClick={() => start.mutate('income_change')}>
          {t('interim.income')}
        </button>
        <button type="button" className="button button-secondary" disabled={start.isPending} onClick={() => start.mutate('household_change')}>
          {t('interim.household')}
        </button>
      </p>
    </section>
  );
}
