import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { api } from '../../../lib/api-client';
import type { ManagedOpportunity } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';

const key = ['opportunities', 'managed'] as const;
/**
 * /manager/opportunities: a manager's opportunities; each is created and edited in the editor
 * (/manager/opportunities/new, /:id/edit), given a paper application, and published.
 */
export function ManageOpportunitiesRoute() {
  const { t } = useTranslation('opportunities');
  usePageTitle(t('manage.title'));
  const toast = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<ManagedOpportunity[]>('/Opportunity/manage/list', { signal }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['opportunities'] });
  const publish = useMutation({
    mutationFn: (input: { id: string; published: boolean }) => api.post<ManagedOpportunity>(`/Opportunity/manage/${input.id}/publish`, { published: input.published }),
    onSettled: refresh,
  });
  const upload = useMutation({
    mutationFn: async (input: { id: string; file: File }) => {
      const bytes = new Uint8Array(await input.file.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return api.put<ManagedOpportunity>(`/Opportunity/manage/${input.id}/paper-application`, { fileBase64: btoa(binary) });
    },
    onSettled: refresh,
  });

  return (
    <div className="page">
      <h1>{t('manage.title')}</h1>
      <p>
        <Link className="button button-primary" to={paths.manager.newOpportunity.getHref()}>
          {t('manage.create')}
        </Link>
      </p>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <LoadError title={t('list.loadError')} detail={errorText(list.error)} onRetry={() => void list.refetch()} />
      ) : (
        <ul className="card-list">
          {list.data.map((o) => (
            <li key={o.id} className="card">
              <h2 className="card-title">{o.name}</h2>
              <p>
                {t(`types.${o.kind}`)} · {o.address} · {t('list.lotteryEndsOn', { date: formatDate(o.lotteryEndDate) })} · {t('list.units', { count: o.unitCount })}
              </p>
              <p>
                {o.published ? t('manage.published') : t('manage.draft')} · {o.selection === 'lottery' ? t('manage.lottery') : t('manage.firstCome')}
              </p>
              {o.selection === 'lottery' && o.published ? (
                <p>
                  <Link to={paths.manager.lottery.getHref(o.id)}>{t('manage.runLottery')}</Link>
                </p>
              ) : null}
              <div className="action-buttons">
                <Link className="button button-secondary" to={paths.manager.editOpportunity.getHref(o.id)} aria-label={t('manage.editOf', { name: o.name })}>
                  {t('manage.edit')}
                </Link>
                <button type="button" className={o.published ? 'button button-secondary' : 'button button-primary'} onClick={() => publish.mutate({ id: o.id, published: !o.published }, { onError: (e) => toast.showError(errorText(e)) })}>
                  {o.published ? t('manage.unpublish') : t('manage.publish')}
                </button>
                <label className="button button-secondary">
                  {o.hasPaperApplication ? t('manage.replacePaper') : t('manage.addPaper')}
                  <input
                    type="file"
                    accept="application/pdf"
                    className="visually-hidden"
                    onChange={(e) => {
                      const file = e.target.files?.[0];
                      if (file) upload.mutate({ id: o.id, file }, { onSuccess: () => toast.showSuccess(t('manage.paperSaved')), onError: (err) => toast.showError(errorText(err)) });
                    }}
                  />
                </label>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
