import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { api } from '../../../lib/api-client';
import { OpportunityInput, type ManagedOpportunity } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';

const key = ['opportunities', 'managed'] as const;
const cells = (line: string) => line.split('|').map((c) => c.trim());
const rows = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean).map(cells);

/** Reads the create form into the shared OpportunityInput schema (the API validates it again). */
function readForm(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const num = (name: string) => (text(name) ? Number(text(name)) : undefined);
  return OpportunityInput.safeParse({
    name: text('name'),
    kind: text('kind'),
    building: text('building'),
    address: text('address'),
    description: text('description'),
    amenities: text('amenities').split(',').map((a) => a.trim()).filter(Boolean),
    lotteryEndDate: text('lotteryEndDate'),
    selection: text('selection') || 'first_come',
    lottery: {
      setAsides: rows(text('setAsides')).map(([line]) => {
        const [group, percent] = (line ?? '').split(/\s+/);
        return { group, share: Number(percent) / 100 };
      }),
    },
    units: rows(text('units')).map(([unitNumber, bedroomType, rent, ami, access]) => ({
      unitNumber,
      bedroomType,
      monthlyRent: Number(rent),
      amiPercent: Number(ami),
      accessibility: (access ?? '').split(',').map((a) => a.trim()).filter(Boolean),
    })),
    requirements: rows(text('requirements')).map(([ami, layout, rent]) => ({ amiPercent: Number(ami), layout, monthlyRent: Number(rent) })),
    incomeRanges: rows(text('incomeRanges')).map(([size, min, max]) => ({ householdSize: Number(size), min: Number(min), max: Number(max) })),
    settings: Object.fromEntries(
      (['offerExpiryDays', 'appealWindowDays', 'appealDecisionBusinessDays', 'additionalDocumentsDays'] as const).map((k) => [k, num(k)]).filter(([, v]) => v !== undefined),
    ),
  });
}

/** /manager/opportunities: a manager creates opportunities of their organisation, adds the paper application, and publishes. */
export function ManageOpportunitiesRoute() {
  const { t } = useTranslation('opportunities');
  usePageTitle(t('manage.title'));
  const id = useId();
  const toast = useToast();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => api.get<ManagedOpportunity[]>('/Opportunity/manage/list', { signal }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['opportunities'] });
  const create = useMutation({ mutationFn: (body: unknown) => api.post<ManagedOpportunity>('/Opportunity/manage', body), onSettled: refresh });
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

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = readForm(new FormData(event.currentTarget));
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? t('manage.invalid'));
      return;
    }
    setProblem(null);
    const form = event.currentTarget;
    create.mutate(parsed.data, {
      onSuccess: () => {
        toast.showSuccess(t('manage.created'));
        form.reset();
      },
      onError: (e) => setProblem(errorText(e)),
    });
  }

  const field = (name: string, label: string, input: React.ReactNode, hint?: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {input}
      {hint ? <p className="hint">{hint}</p> : null}
    </div>
  );

  return (
    <div className="page">
      <h1>{t('manage.title')}</h1>
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
                <button type="button" className="button button-primary" onClick={() => publish.mutate({ id: o.id, published: !o.published }, { onError: (e) => toast.showError(errorText(e)) })}>
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
      <section className="panel" aria-labelledby={`${id}-create`}>
        <h2 id={`${id}-create`}>{t('manage.create')}</h2>
        <form className="form" onSubmit={onSubmit} noValidate>
          {field('name', t('manage.name'), <input id={`${id}-name`} name="name" required />)}
          {field(
            'kind',
            t('detail.type'),
            <select id={`${id}-kind`} name="kind" defaultValue="rental">
              <option value="rental">{t('types.rental')}</option>
              <option value="ownership">{t('types.ownership')}</option>
            </select>,
          )}
          {field('building', t('manage.building'), <input id={`${id}-building`} name="building" />)}
          {field('address', t('detail.address'), <input id={`${id}-address`} name="address" required />)}
          {field('description', t('manage.description'), <textarea id={`${id}-description`} name="description" rows={3} />)}
          {field('amenities', t('detail.amenities'), <input id={`${id}-amenities`} name="amenities" />, t('manage.commaHint'))}
          {field('lotteryEndDate', t('detail.lotteryEnds'), <input id={`${id}-lotteryEndDate`} name="lotteryEndDate" type="date" required />)}
          {field(
            'selection',
            t('manage.selection'),
            <select id={`${id}-selection`} name="selection" defaultValue="first_come">
              <option value="first_come">{t('manage.firstCome')}</option>
              <option value="lottery">{t('manage.lottery')}</option>
            </select>,
          )}
          {field('setAsides', t('manage.setAsides'), <textarea id={`${id}-setAsides`} name="setAsides" rows={2} />, t('manage.setAsidesHint'))}
          {field('units', t('detail.units'), <textarea id={`${id}-units`} name="units" rows={4} />, t('manage.unitsHint'))}
          {field('requirements', t('detail.requirements'), <textarea id={`${id}-requirements`} name="requirements" rows={3} />, t('manage.requirementsHint'))}
          {field('incomeRanges', t('detail.eligibleIncome'), <textarea id={`${id}-incomeRanges`} name="incomeRanges" rows={3} />, t('manage.incomeHint'))}
          {field('offerExpiryDays', t('manage.offerExpiryDays'), <input id={`${id}-offerExpiryDays`} name="offerExpiryDays" type="number" min={1} max={90} placeholder="7" />)}
          {field('appealWindowDays', t('manage.appealWindowDays'), <input id={`${id}-appealWindowDays`} name="appealWindowDays" type="number" min={1} max={90} placeholder="14" />)}
          {field('appealDecisionBusinessDays', t('manage.appealDecisionBusinessDays'), <input id={`${id}-appealDecisionBusinessDays`} name="appealDecisionBusinessDays" type="number" min={1} max={30} placeholder="5" />)}
          {field('additionalDocumentsDays', t('manage.additionalDocumentsDays'), <input id={`${id}-additionalDocumentsDays`} name="additionalDocumentsDays" type="number" min={1} max={90} placeholder="14" />)}
          {problem ? (
            <p className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {t('manage.save')}
          </button>
        </form>
      </section>
    </div>
  );
}
