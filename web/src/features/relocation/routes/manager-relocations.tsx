import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { paths } from '../../../config/paths';
import { api } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import type { RelocationStatus } from '../../../lib/domain';

interface Row {
  relocationId: string;
  householdName: string;
  status: RelocationStatus;
  endsAt: string | null;
}

/** /manager/relocations: the organisation's relocations and a form to start one for a tenant household. */
export function ManagerRelocationsRoute() {
  const { t } = useTranslation('dashboard');
  const { t: tRecert } = useTranslation('recertification');
  usePageTitle(t('relocation.manager.listTitle'));
  const client = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const errorText = useErrorText();
  const [form, setForm] = useState({ householdId: '', reason: '' });
  const list = useQuery({ queryKey: ['relocation', 'list'], queryFn: ({ signal }) => api.get<{ relocations: Row[] }>('/Relocation', { signal }) });
  const households = useQuery({
    queryKey: ['relocation', 'households'],
    queryFn: ({ signal }) => api.get<{ householdId: string; name: string; building: string; unitNumber: string }[]>('/Relocation/manager/households', { signal }),
  });
  const start = useMutation({
    mutationFn: () => api.post<{ relocationId: string }>('/Relocation/manager/start', form),
    onSuccess: ({ relocationId }) => {
      void client.invalidateQueries({ queryKey: ['relocation'] });
      void navigate(paths.manager.relocation.getHref(relocationId));
    },
    onError: (error) => toast.showError(errorText(error)),
  });
  if (list.isPending) return <Loading />;
  if (list.isError) return <LoadError title={t('relocation.loadFailed')} detail={errorText(list.error)} onRetry={() => void list.refetch()} />;
  return (
    <div className="page">
      <h1>{t('relocation.manager.listTitle')}</h1>
      <p>
        <Link to={paths.manager.recertifications.getHref()}>{tRecert('households.link')}</Link>
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('relocation.manager.listTitle')}>
        <table className="table">
          <thead>
            <tr>
              <th>{t('relocation.manager.household')}</th>
              <th>{t('relocation.manager.statusColumn')}</th>
              <th>{t('relocation.manager.endsColumn')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.relocations.map((r) => (
              <tr key={r.relocationId}>
                <td>
                  <Link to={paths.manager.relocation.getHref(r.relocationId)}>{r.householdName}</Link>
                </td>
                <td>{t(`relocation.status.${r.status}`)}</td>
                <td>{r.endsAt ? formatDate(r.endsAt) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section className="panel">
        <h2>{t('relocation.manager.start')}</h2>
        <label className="field">
          <span>{t('relocation.manager.household')}</span>
          <select value={form.householdId} onChange={(e) => setForm({ ...form, householdId: e.target.value })}>
            <option value="">{t('relocation.manager.choose')}</option>
            {households.data?.map((h) => (
              <option key={h.householdId} value={h.householdId}>
                {h.name} ({h.building} {h.unitNumber})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('relocation.manager.reason')}</span>
          <textarea rows={3} value={form.reason} onChange={(e) => setForm({ ...form, reason: e.target.value })} />
        </label>
        <button type="button" className="button button-primary" disabled={!form.householdId || !form.reason.trim() || start.isPending} onClick={() => start.mutate()}>
          {t('relocation.manager.start')}
        </button>
      </section>
    </div>
  );
}
