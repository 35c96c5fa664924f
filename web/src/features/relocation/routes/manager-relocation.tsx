import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { CaseFilePanel } from '../../case-file/components/case-file-panel';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { api } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/errors';
import type { RelocationView } from '../../../lib/domain';
import { WhoseMoveSentence } from '../../../components/whose-move';
import { formatDate } from '../../../lib/format';

type Step = 'offer-unit' | 'confirm-move' | 'extend' | 'confirm-return';

/** /manager/relocation/:id: offer a temporary unit, confirm the move, extend, confirm the return. */
export function ManagerRelocationRoute() {
  const { id = '' } = useParams();
  const { t } = useTranslation('dashboard');
  const { t: tRecert } = useTranslation('recertification');
  usePageTitle(t('relocation.manager.title'));
  const client = useQueryClient();
  const toast = useToast();
  const errorText = useErrorText();
  const [unit, setUnit] = useState({ unitNumber: '', bedroomType: '', address: '' });
  const [extension, setExtension] = useState({ until: '', reason: '' });
  const key = ['relocation', 'case', id];
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<RelocationView>(`/Relocation/case/${encodeURIComponent(id)}`, { signal }) });
  const act = useMutation({
    mutationFn: ({ step, body }: { step: Step; body?: object }) => api.post<RelocationView>(`/Relocation/manager/${encodeURIComponent(id)}/${step}`, body ?? {}),
    onSuccess: (data) => {
      client.setQueryData(key, data);
      toast.showSuccess(t('relocation.saved'));
    },
    onError: (error) => toast.showError(errorText(error)),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError title={t('relocation.loadFailed')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />;
  const r = query.data;
  const can = (a: string) => (r.availableActions.manager as string[]).includes(a);
  const day = formatDate;
  const field = (name: keyof typeof unit) => (
    <label className="field">
      <span>{t(`relocation.manager.${name}`)}</span>
      <input value={unit[name]} onChange={(e) => setUnit({ ...unit, [name]: e.target.value })} />
    </label>
  );
  return (
    <div className="page">
      <h1>{t('relocation.manager.title')}</h1>
      <WhoseMoveSentence kind="relocation" viewer="manager" status={r.status} pendingTasks={r.pendingTasks} />
      <p>
        <Link className="button button-secondary" to={paths.auth.requestImpersonateUser.getHref(r.tenantUserId)}>
          {tRecert('manager.actFor')}
        </Link>
      </p>
      <section className="panel">
        <p>{t(`relocation.status.${r.status}`)}</p>
        {r.endsAt ? <p>{t('relocation.endsAt', { date: day(r.endsAt) })}</p> : null}
        <ul>
          {r.offers.map((o) => (
            <li key={o.offerId}>
              {t('relocation.offer', { unit: o.unit.unitNumber, bedrooms: o.unit.bedroomType, address: o.unit.address })}: {t(`relocation.manager.offerState.${o.state}`)}
            </li>
          ))}
        </ul>
      </section>
      {can('OfferTemporaryUnit') ? (
        <section className="panel">
          <h2>{t('relocation.manager.offerUnit')}</h2>
          {field('unitNumber')}
          {field('bedroomType')}
          {field('address')}
          <button type="button" className="button button-primary" disabled={act.isPending || !unit.unitNumber || !unit.bedroomType || !unit.address} onClick={() => act.mutate({ step: 'offer-unit', body: unit })}>
            {t('relocation.manager.offerUnit')}
          </button>
        </section>
      ) : null}
      {can('ConfirmMove') ? (
        <button type="button" className="button button-primary button-large" disabled={act.isPending} onClick={() => act.mutate({ step: 'confirm-move' })}>
          {t('relocation.manager.confirmMove')}
        </button>
      ) : null}
      {can('ExtendRelocation') ? (
        <section className="panel">
          <h2>{t('relocation.manager.extend')}</h2>
          <label className="field">
            <span>{t('relocation.manager.until')}</span>
            <input type="date" value={extension.until} onChange={(e) => setExtension({ ...extension, until: e.target.value })} />
          </label>
          <label className="field">
            <span>{t('relocation.manager.reason')}</span>
            <textarea rows={3} value={extension.reason} onChange={(e) => setExtension({ ...extension, reason: e.target.value })} />
          </label>
          <button type="button" className="button button-secondary" disabled={act.isPending || !extension.until || !extension.reason.trim()} onClick={() => act.mutate({ step: 'extend', body: extension })}>
            {t('relocation.manager.extend')}
          </button>
        </section>
      ) : null}
      {can('ConfirmReturn') ? (
        <button type="button" className="button button-primary button-large" disabled={act.isPending} onClick={() => act.mutate({ step: 'confirm-return' })}>
          {t('relocation.manager.confirmReturn')}
        </button>
      ) : null}
      <CaseFilePanel kind="relocation" caseId={id} />
    </div>
  );
}
