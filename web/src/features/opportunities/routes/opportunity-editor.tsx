import { LISTING_AREAS } from '../../../../../domain/opportunity-filter';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { api } from '../../../lib/api-client';
import { LOTTERY_GROUPS, type LotteryGroup, type ManagedOpportunity, type OpportunityInput } from '../../../lib/domain';
import { useErrorText, useValidationText } from '../../../lib/validation-text';
import { OpportunityDetailView } from '../components/opportunity-detail';
import {
  ACCESSIBILITY,
  BEDROOMS,
  SETTING_KEYS,
  checkDraft,
  draftOf,
  emptyDraft,
  emptyIncome,
  emptyRequirement,
  emptySetAside,
  emptyUnit,
  previewOf,
  type OpportunityDraft,
} from '../editor-draft';

/**
 * /manager/opportunities/new and /manager/opportunities/:id/edit: the opportunity as a
 * form (units, requirements by AMI band, income ranges by household size, dates, lottery settings),
 * checked by the shared OpportunityInput schema with the spec's messages next to each field, and a
 * preview of the public page before saving.
 */
export function OpportunityEditorRoute() {
  const { id } = useParams();
  const { t } = useTranslation('opportunityEditor');
  const errorText = useErrorText();
  const existing = useQuery({
    queryKey: ['opportunities', 'managed', id],
    queryFn: ({ signal }) => api.get<ManagedOpportunity>(`/Opportunity/manage/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
  });
  usePageTitle(id ? t('editTitle', { name: existing.data?.name ?? '' }) : t('newTitle'));
  if (!id) return <Editor />;
  if (existing.isPending) return <Loading />;
  if (existing.isError) return <LoadError title={t('loadError')} detail={errorText(existing.error)} onRetry={() => void existing.refetch()} />;
  return <Editor opportunity={existing.data} />;
}

function Editor({ opportunity }: { opportunity?: ManagedOpportunity }) {
  const { t } = useTranslation('opportunityEditor');
  const uid = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const validationText = useValidationText();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<OpportunityDraft>(() => (opportunity ? draftOf(opportunity) : emptyDraft()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const save = useMutation({
    mutationFn: (body: OpportunityInput) =>
      opportunity ? api.put<ManagedOpportunity>(`/Opportunity/manage/${encodeURIComponent(opportunity.id)}`, body) : api.post<ManagedOpportunity>('/Opportunity/manage', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['opportunities'] }),
  });
  const errorCount = Object.keys(errors).length;
  useEffect(() => {
    if (errorCount > 0 || problem) summaryRef.current?.focus();
  }, [errorCount, problem]);

  const update = (change: Partial<OpportunityDraft>) => setDraft((d) => ({ ...d, ...change }));
  const fieldId = (key: string) => `${uid}-${key.replace(/\./g, '-')}`;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkDraft(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      setProblem(null);
      return;
    }
    setErrors({});
    setProblem(null);
    save.mutate(checked.input, {
      onSuccess: () => {
        toast.showSuccess(t('saved'));
        void navigate(paths.manager.opportunities.getHref());
      },
      onError: (e) => setProblem(errorText(e)),
    });
  }

  /** A labelled control with its hint and the schema's message for `key` (in the reader's language). */
  const field = (key: string, label: string, control: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode, hint?: string) => {
    const id = fieldId(key);
    const error = errors[key];
    const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {control({ id, ...(error ? { 'aria-invalid': true as const } : {}), ...(described ? { 'aria-describedby': described } : {}) })}
        {hint ? (
          <p className="field-hint" id={`${id}-hint`}>
            {hint}
          </p>
        ) : null}
        {error ? (
          <p className="field-error" id={`${id}-error`}>
            {validationText(error)}
          </p>
        ) : null}
      </div>
    );
  };
  const groupError = (key: string) =>
    errors[key] ? (
      <p className="field-error" id={`${fieldId(key)}-error`}>
        {validationText(errors[key])}
      </p>
    ) : null;

  function rows<T>(list: T[], set: (next: T[]) => void) {
    return {
      change: (index: number, patch: Partial<T>) => set(list.map((row, i) => (i === index ? { ...row, ...patch } : row))),
      remove: (index: number) => set(list.filter((_, i) => i !== index)),
    };
  }
  const units = rows(draft.units, (next) => update({ units: next }));
  const requirements = rows(draft.requirements, (next) => update({ requirements: next }));
  const incomes = rows(draft.incomeRanges, (next) => update({ incomeRanges: next }));
  const setAsides = rows(draft.setAsides, (next) => update({ setAsides: next }));

  const title = opportunity ? t('editTitle', { name: opportunity.name }) : t('newTitle');
  const bedroomOptions = (value: string) => [...new Set([...BEDROOMS, value])].filter(Boolean);

  return (
    <div className="page">
      <p>
        <Link to={paths.manager.opportunities.getHref()} className="back-link">
          ← {t('back')}
        </Link>
      </p>
      <h1>{title}</h1>
      <p className="lead">{t('intro')}</p>
      <p className="action-buttons">
        <button type="button" className="button button-secondary" aria-pressed={previewing} onClick={() => setPreviewing((p) => !p)}>
          {previewing ? t('preview.hide') : t('preview.show')}
        </button>
      </p>

      {previewing ? (
        <section className="panel opportunity-preview" aria-label={t('preview.title')}>
          <p className="notice">{t('preview.title')}</p>
          <OpportunityDetailView opportunity={previewOf(draft, opportunity?.id ?? 'preview', new Date())} applySlot={<p className="muted">{t('preview.applyNote')}</p>} />
        </section>
      ) : (
        <form className="form opportunity-editor" onSubmit={onSubmit} noValidate>
          {errorCount > 0 || problem ? (
            <p className="form-error" role="alert" tabIndex={-1} ref={summaryRef}>
              {problem ?? t('checkForm', { count: errorCount })}
            </p>
          ) : null}

          <fieldset className="panel">
            <legend>{t('sections.about')}</legend>
            {field('name', t('fields.name'), (p) => <input {...p} value={draft.name} onChange={(e) => update({ name: e.target.value })} required />)}
            {field('kind', t('fields.kind'), (p) => (
              <select {...p} value={draft.kind} onChange={(e) => update({ kind: e.target.value as OpportunityDraft['kind'] })}>
                <option value="rental">{t('kinds.rental')}</option>
                <option value="ownership">{t('kinds.ownership')}</option>
              </select>
            ))}
            {field('building', t('fields.building'), (p) => <input {...p} value={draft.building} onChange={(e) => update({ building: e.target.value })} />)}
            {field('address', t('fields.address'), (p) => <input {...p} value={draft.address} onChange={(e) => update({ address: e.target.value })} autoComplete="off" required />)}
            {field('area', t('fields.area'), (p) => (
              <select {...p} value={draft.area} onChange={(e) => update({ area: e.target.value })}>
                <option value="">{t('areas.none')}</option>
                {LISTING_AREAS.map((a) => (
                  <option key={a} value={a}>
                    {t(`areas.${a}`)}
                  </option>
                ))}
              </select>
            ))}
            {field('mailingAddress', t('fields.mailingAddress'), (p) => <textarea {...p} rows={3} value={draft.mailingAddress} onChange={(e) => update({ mailingAddress: e.target.value })} />, t('fields.mailingAddressHint'))}
            {field('description', t('fields.description'), (p) => <textarea {...p} rows={4} value={draft.description} onChange={(e) => update({ description: e.target.value })} />)}
            {field('amenities', t('fields.amenities'), (p) => <input {...p} value={draft.amenities} onChange={(e) => update({ amenities: e.target.value })} />, t('fields.amenitiesHint'))}
          </fieldset>

          <fieldset className="panel">
            <legend>{t('sections.units')}</legend>
            {draft.units.length === 0 ? <p className="muted">{t('rows.noUnits')}</p> : null}
            {draft.units.map((unit, i) => {
              const name = t('rows.unit', { n: i + 1 });
              return (
                <fieldset key={i} className="editor-row">
                  <legend>{name}</legend>
                  {field(`units.${i}.unitNumber`, t('fields.unitNumber'), (p) => <input {...p} value={unit.unitNumber} onChange={(e) => units.change(i, { unitNumber: e.target.value })} />)}
                  {field(`units.${i}.bedroomType`, t('fields.bedrooms'), (p) => (
                    <select {...p} value={unit.bedroomType} onChange={(e) => units.change(i, { bedroomType: e.target.value })}>
                      {bedroomOptions(unit.bedroomType).map((b) => (
                        <option key={b} value={b}>
                          {(BEDROOMS as readonly string[]).includes(b) ? t(`bedrooms.${b as (typeof BEDROOMS)[number]}`) : b}
                        </option>
                      ))}
                    </select>
                  ))}
                  {field(`units.${i}.monthlyRent`, t('fields.monthlyRent'), (p) => <input {...p} inputMode="decimal" value={unit.monthlyRent} onChange={(e) => units.change(i, { monthlyRent: e.target.value })} />)}
                  {field(`units.${i}.amiPercent`, t('fields.amiPercent'), (p) => <input {...p} inputMode="numeric" value={unit.amiPercent} onChange={(e) => units.change(i, { amiPercent: e.target.value })} />)}
                  <fieldset className="checkbox-group">
                    <legend>{t('fields.accessibility')}</legend>
                    {ACCESSIBILITY.map((feature) => (
                      <label key={feature} className="field-checkbox">
                        <input
                          type="checkbox"
                          checked={unit.accessibility.includes(feature)}
                          onChange={(e) => units.change(i, { accessibility: e.target.checked ? [...unit.accessibility, feature] : unit.accessibility.filter((a) => a !== feature) })}
                        />
                        {t(`access.${feature}`)}
                      </label>
                    ))}
                  </fieldset>
                  <button type="button" className="button button-secondary" onClick={() => units.remove(i)}>
                    {t('rows.remove', { what: name })}
                  </button>
                </fieldset>
              );
            })}
            {groupError('units')}
            <button type="button" className="button button-secondary" onClick={() => update({ units: [...draft.units, emptyUnit()] })}>
              {t('rows.addUnit')}
            </button>
          </fieldset>

          <fieldset className="panel">
            <legend>{t('sections.requirements')}</legend>
            {draft.requirements.length === 0 ? <p className="muted">{t('rows.noRows')}</p> : null}
            {draft.requirements.map((row, i) => {
              const name = t('rows.requirement', { n: i + 1 });
              return (
                <fieldset key={i} className="editor-row">
                  <legend>{name}</legend>
                  {field(`requirements.${i}.amiPercent`, t('fields.amiPercent'), (p) => <input {...p} inputMode="numeric" value={row.amiPercent} onChange={(e) => requirements.change(i, { amiPercent: e.target.value })} />)}
                  {field(`requirements.${i}.layout`, t('fields.layout'), (p) => (
                    <select {...p} value={row.layout} onChange={(e) => requirements.change(i, { layout: e.target.value })}>
                      {bedroomOptions(row.layout).map((b) => (
                        <option key={b} value={b}>
                          {(BEDROOMS as readonly string[]).includes(b) ? t(`bedrooms.${b as (typeof BEDROOMS)[number]}`) : b}
                        </option>
                      ))}
                    </select>
                  ))}
                  {field(`requirements.${i}.monthlyRent`, t('fields.monthlyRent'), (p) => <input {...p} inputMode="decimal" value={row.monthlyRent} onChange={(e) => requirements.change(i, { monthlyRent: e.target.value })} />)}
                  <button type="button" className="button button-secondary" onClick={() => requirements.remove(i)}>
                    {t('rows.remove', { what: name })}
                  </button>
                </fieldset>
              );
            })}
            <button type="button" className="button button-secondary" onClick={() => update({ requirements: [...draft.requirements, emptyRequirement()] })}>
              {t('rows.addRequirement')}
            </button>
          </fieldset>

          <fieldset className="panel">
            <legend>{t('sections.incomeRanges')}</legend>
            {draft.incomeRanges.length === 0 ? <p className="muted">{t('rows.noRows')}</p> : null}
            {draft.incomeRanges.map((row, i) => {
              const name = t('rows.incomeRange', { n: i + 1 });
              return (
                <fieldset key={i} className="editor-row">
                  <legend>{name}</legend>
                  {field(`incomeRanges.${i}.householdSize`, t('fields.householdSize'), (p) => <input {...p} inputMode="numeric" value={row.householdSize} onChange={(e) => incomes.change(i, { householdSize: e.target.value })} />)}
                  {field(`incomeRanges.${i}.min`, t('fields.minIncome'), (p) => <input {...p} inputMode="decimal" value={row.min} onChange={(e) => incomes.change(i, { min: e.target.value })} />)}
                  {field(`incomeRanges.${i}.max`, t('fields.maxIncome'), (p) => <input {...p} inputMode="decimal" value={row.max} onChange={(e) => incomes.change(i, { max: e.target.value })} />)}
                  <button type="button" className="button button-secondary" onClick={() => incomes.remove(i)}>
                    {t('rows.remove', { what: name })}
                  </button>
                </fieldset>
              );
            })}
            <button type="button" className="button button-secondary" onClick={() => update({ incomeRanges: [...draft.incomeRanges, emptyIncome()] })}>
              {t('rows.addIncomeRange')}
            </button>
          </fieldset>

          <fieldset className="panel">
            <legend>{t('sections.dates')}</legend>
            {field('lotteryEndDate', t('fields.lotteryEndDate'), (p) => <input {...p} type="date" value={draft.lotteryEndDate} onChange={(e) => update({ lotteryEndDate: e.target.value })} required />)}
            {SETTING_KEYS.map((k) =>
              field(`settings.${k}`, t(`fields.${k}`), (p) => <input {...p} inputMode="numeric" value={draft.settings[k]} onChange={(e) => update({ settings: { ...draft.settings, [k]: e.target.value } })} />, t('fields.daysHint')),
            )}
          </fieldset>

          <fieldset className="panel">
            <legend>{t('sections.lottery')}</legend>
            <fieldset className="radio-group">
              <legend>{t('fields.selection')}</legend>
              {(['first_come', 'lottery'] as const).map((s) => (
                <label key={s} className="radio">
                  <input type="radio" name={`${uid}-selection`} value={s} checked={draft.selection === s} onChange={() => update({ selection: s })} />
                  {s === 'lottery' ? t('fields.lottery') : t('fields.firstCome')}
                </label>
              ))}
            </fieldset>
            {draft.selection === 'lottery' ? (
              <>
                {draft.setAsides.map((row, i) => {
                  const name = t('rows.setAside', { n: i + 1 });
                  return (
                    <fieldset key={i} className="editor-row">
                      <legend>{name}</legend>
                      {field(`lottery.setAsides.${i}.group`, t('fields.setAsideGroup'), (p) => (
                        <select {...p} value={row.group} onChange={(e) => setAsides.change(i, { group: e.target.value as LotteryGroup })}>
                          {LOTTERY_GROUPS.map((g) => (
                            <option key={g} value={g}>
                              {t(`groups.${g}`)}
                            </option>
                          ))}
                        </select>
                      ))}
                      {field(`lottery.setAsides.${i}.percent`, t('fields.setAsidePercent'), (p) => <input {...p} inputMode="decimal" value={row.percent} onChange={(e) => setAsides.change(i, { percent: e.target.value })} />)}
                      <button type="button" className="button button-secondary" onClick={() => setAsides.remove(i)}>
                        {t('rows.remove', { what: name })}
                      </button>
                    </fieldset>
                  );
                })}
                {groupError('lottery.setAsides')}
                {draft.setAsides.length < LOTTERY_GROUPS.length ? (
                  <button type="button" className="button button-secondary" onClick={() => update({ setAsides: [...draft.setAsides, emptySetAside(draft.setAsides.map((s) => s.group))] })}>
                    {t('rows.addSetAside')}
                  </button>
                ) : null}
                {field('lottery.communityBoard', t('fields.communityBoard'), (p) => <input {...p} value={draft.communityBoard} onChange={(e) => update({ communityBoard: e.target.value })} />)}
                {field('lottery.mailGraceDays', t('fields.mailGraceDays'), (p) => <input {...p} type="number" min={0} max={60} inputMode="numeric" value={draft.mailGraceDays} onChange={(e) => update({ mailGraceDays: e.target.value })} />)}
              </>
            ) : null}
          </fieldset>

          <p className="action-buttons">
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {save.isPending ? t('saving') : t('save')}
            </button>
          </p>
        </form>
      )}
    </div>
  );
}
