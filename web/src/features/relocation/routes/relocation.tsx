import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useToast } from '../../../components/ui/toast';
import { usePageTitle } from '../../../components/ui/use-page-title';
import { useErrorText } from '../../../lib/errors';
import { useRelocation, useRelocationStep, type RelocationStep } from '../api/relocation';
import { CaseSupport } from '../../../components/case-support';
import { WhoseMoveSentence } from '../../../components/whose-move';
import { formatDate, formatDateTime } from '../../../lib/format';

/** /relocation: a temporary relocation of up to 6 months (spec sections 1, 2, 7, 9). */
export function RelocationRoute() {
  const { t } = useTranslation('dashboard');
  usePageTitle(t('relocation.title'));
  const query = useRelocation();
  const step = useRelocationStep();
  const toast = useToast();
  const errorText = useErrorText();
  const [confirming, setConfirming] = useState<RelocationStep | null>(null);

  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadError title={t('relocation.loadFailed')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />;
  const r = query.data.relocation;
  const when = (iso: string) => formatDateTime(iso, 'full');
  const day = formatDate;
  const run = (s: RelocationStep) =>
    step.mutate(s, { onSuccess: () => toast.showSuccess(t('relocation.saved')), onError: (error) => toast.showError(errorText(error)) });
  if (!r) {
    return (
      <div className="page">
        <h1>{t('relocation.title')}</h1>
        <p>{t('relocation.none')}</p>
      </div>
    );
  }
  const can = (a: string) => (r.availableActions.tenant as string[]).includes(a);
  const openOffer = r.offers.find((o) => o.state === 'open');
  return (
    <div className="page">
      <h1>{t('relocation.title')}</h1>
      <WhoseMoveSentence kind="relocation" viewer="person" status={r.status} pendingTasks={r.pendingTasks} />
      <section className="panel">
        <p data-testid="relocation-status">{t(`relocation.status.${r.status}`)}</p>
        {r.endsAt ? <p>{t('relocation.endsAt', { date: day(r.endsAt) })}</p> : null}
        {r.bookedSlot ? <p>{t('relocation.booked', { when: when(r.bookedSlot.startsAt) })}</p> : null}
      </section>
      {can('SubmitProfile') ? (
        <section className="panel">
          <p>{t('relocation.submitIntro')}</p>
          <button type="button" className="button button-primary button-large" onClick={() => run({ kind: 'submitProfile', id: r.relocationId })}>
            {t('relocation.submitProfile')}
          </button>
        </section>
      ) : null}
      {openOffer && can('AcceptOffer') ? (
        <section className="panel">
          <h2>{t('relocation.offerTitle')}</h2>
          <p>{t('relocation.offer', { unit: openOffer.unit.unitNumber, bedrooms: openOffer.unit.bedroomType, address: openOffer.unit.address })}</p>
          <p className="hero-actions">
            <button type="button" className="button button-primary" onClick={() => setConfirming({ kind: 'accept', id: r.relocationId, offerId: openOffer.offerId })}>
              {t('relocation.accept')}
            </button>
            <button type="button" className="button button-danger" onClick={() => setConfirming({ kind: 'decline', offerId: openOffer.offerId })}>
              {t('relocation.decline')}
            </button>
          </p>
        </section>
      ) : null}
      {can('BookSlot') ? (
        <section className="panel">
          <h2>{t('relocation.slotsTitle')}</h2>
          <ul className="slot-list">
            {r.slots.slice(0, 10).map((s) => (
              <li key={s.slotId}>
                <button type="button" className="button button-secondary" onClick={() => run({ kind: 'bookSlot', id: r.relocationId, slotId: s.slotId })}>
                  {when(s.startsAt)}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Dialog open={confirming !== null} title={t('relocation.confirmTitle')} onClose={() => setConfirming(null)}>
        <p className="notice">{t('relocation.irreversible')}</p>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => setConfirming(null)}>
            {t('relocation.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              if (confirming) run(confirming);
              setConfirming(null);
            }}
          >
            {t('relocation.yes')}
          </button>
        </div>
      </Dialog>
      <CaseSupport kind="relocation" caseId={r.relocationId} />
    </div>
  );
}
