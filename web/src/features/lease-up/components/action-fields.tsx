import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import type { ApplicationDetail, LeaseUpAction, OpportunityDetail } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import type { ActionPayload } from '../api/run-action';
import { useHouseholdDocuments } from '../api/household-documents';
import { SignaturePadField } from './signature-pad';

const when = (iso: string) => new Date(iso).toLocaleString();

/** Actions whose form asks for more than a confirmation. */
export const ACTIONS_WITH_FIELDS: readonly LeaseUpAction[] = [
  'RejectDocuments',
  'RequestAdditionalDocuments',
  'SubmitAdditionalDocuments',
  'ProceedToAppointmentScheduling',
  'ScheduleAppointment',
  'RescheduleAppointment',
  'OfferUnit',
  'RespondToUnitOffer',
  'SignTIC',
  'SignLeaseLetter',
  'UpdateInfo',
];

/** Reads the form of `action` into the payload its endpoint takes; null when something is missing. */
export function readPayload(action: LeaseUpAction, form: FormData, application: ApplicationDetail, signature: string | null): ActionPayload | null {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const lines = (name: string) => text(name).split('\n').map((l) => l.trim()).filter(Boolean);
  switch (action) {
    case 'RejectDocuments': {
      const chosen = form.getAll('rejectDocumentId').map(String).map((documentId) => ({
        item: text(`label-${documentId}`),
        documentId,
        ...(text(`reason-${documentId}`) ? { reason: text(`reason-${documentId}`) } : {}),
      }));
      const typed = lines('documents').map((line) => {
        const [item, ...reason] = line.split(':');
        return { item: item!.trim(), ...(reason.join(':').trim() ? { reason: reason.join(':').trim() } : {}) };
      });
      const documents = [...chosen, ...typed];
      return documents.length ? { documents } : null;
    }
    case 'RequestAdditionalDocuments': {
      const documentTypes = lines('documentTypes');
      const due = text('dueDate');
      if (!documentTypes.length) return null;
      return { documentTypes, ...(text('note') ? { note: text('note') } : {}), ...(due ? { dueAt: new Date(`${due}T23:59:00`).toISOString() } : {}) };
    }
    case 'SubmitAdditionalDocuments': {
      const documents = application.outstandingDocuments.map((d, i) => ({
        item: d.item,
        ...(text(`file-${i}`) ? { documentId: text(`file-${i}`) } : {}),
        ...(text(`answer-${i}`) ? { reason: text(`answer-${i}`) } : {}),
      }));
      return documents.every((d) => d.documentId || d.reason) ? { documents } : null;
    }
    case 'ProceedToAppointmentScheduling': {
      const slots = [0, 1, 2].map((i) => text(`slot-${i}`)).filter(Boolean).map((s) => new Date(s).toISOString());
      return slots.length ? { slots } : null;
    }
    case 'ScheduleAppointment':
    case 'RescheduleAppointment':
      return text('slot') ? { slot: text('slot') } : null;
    case 'OfferUnit': {
      const unitIds = form.getAll('unitIds').map(String);
      const expires = text('expiresDate');
      return unitIds.length ? { unitIds, ...(expires ? { expiresAt: new Date(`${expires}T23:59:00`).toISOString() } : {}) } : null;
    }
    case 'RespondToUnitOffer':
      return text('offerId') && text('answer') ? { offerId: text('offerId'), accept: text('answer') === 'accept' } : null;
    case 'SignTIC': {
      if (!signature) return null;
      const member = nextTicSigner(application);
      return { signatureBase64: signature, ...(member && !member.isHead ? { memberId: member.id } : {}) };
    }
    case 'SignLeaseLetter':
      return signature ? { signatureBase64: signature } : null;
    case 'UpdateInfo': {
      const size = Number(text('householdSize'));
      const income = Number(text('householdIncome'));
      return text('householdSize') && text('householdIncome') && Number.isInteger(size) && size >= 1 && income >= 0
        ? { householdSize: size, householdIncome: income }
        : null;
    }
    default:
      return {};
  }
}

/** The inputs of one action's form. */
export function ActionFields({ action, application, onSignature }: { action: LeaseUpAction; application: ApplicationDetail; onSignature: (png: string | null) => void }) {
  const { t } = useTranslation('leaseupApplications');
  const id = useId();
  const units = useQuery({
    queryKey: ['opportunities', 'detail', application.opportunityId],
    queryFn: () => api.get<OpportunityDetail>(`/Opportunity/${encodeURIComponent(application.opportunityId)}`),
    enabled: action === 'OfferUnit',
  });
  const documents = useHouseholdDocuments(
    application.householdId,
    application.viewerRole === 'manager',
    action === 'RejectDocuments' || action === 'SubmitAdditionalDocuments',
  );
  const uploaded = (documents.data ?? []).filter((d) => d.fileUrl || d.uploadDate);
  const docLabel = (d: { documentTypeName: string; fileName: string }) => `${d.documentTypeName}: ${d.fileName}`;
  const field = (name: string, label: string, input: React.ReactNode) => (
    <div className="field" key={name}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      {input}
    </div>
  );
  switch (action) {
    case 'RejectDocuments':
      return (
        <>
          {uploaded.length > 0 ? (
            <fieldset>
              <legend>{t('form.chooseDocuments')}</legend>
              {uploaded.map((d) => (
                <div key={d.id} className="field">
                  <label className="choice">
                    <input type="checkbox" name="rejectDocumentId" value={d.id} /> {docLabel(d)}
                  </label>
                  <input type="hidden" name={`label-${d.id}`} value={docLabel(d)} />
                  <input name={`reason-${d.id}`} aria-label={t('form.reasonFor', { name: docLabel(d) })} placeholder={t('confirm.reason')} maxLength={2000} />
                </div>
              ))}
            </fieldset>
          ) : null}
          {field('documents', t('form.rejectDocuments'), <textarea id={`${id}-documents`} name="documents" rows={3} />)}
        </>
      );
    case 'RequestAdditionalDocuments':
      return (
        <>
          {field('documentTypes', t('form.documentTypes'), <textarea id={`${id}-documentTypes`} name="documentTypes" rows={3} required />)}
          {field('note', t('form.note'), <input id={`${id}-note`} name="note" maxLength={2000} />)}
          {field('dueDate', t('form.dueDate'), <input id={`${id}-dueDate`} name="dueDate" type="date" />)}
        </>
      );
    case 'SubmitAdditionalDocuments':
      return (
        <>
          <p>{t('form.answerEach')}</p>
          {application.outstandingDocuments.map((d, i) => (
            <fieldset key={d.item}>
              <legend>{`${d.item}${d.reason ? ` (${d.reason})` : ''}`}</legend>
              {field(
                `file-${i}`,
                t('form.uploadedFile'),
                <select id={`${id}-file-${i}`} name={`file-${i}`} defaultValue="">
                  <option value="">{t('form.noFile')}</option>
                  {uploaded.map((u) => (
                    <option key={u.id} value={u.id}>
                      {docLabel(u)}
                    </option>
                  ))}
                </select>,
              )}
              {field(`answer-${i}`, t('form.orReason'), <textarea id={`${id}-answer-${i}`} name={`answer-${i}`} rows={2} />)}
            </fieldset>
          ))}
        </>
      );
    case 'ProceedToAppointmentScheduling':
      return <>{[0, 1, 2].map((i) => field(`slot-${i}`, t('form.slot', { n: i + 1 }), <input id={`${id}-slot-${i}`} name={`slot-${i}`} type="datetime-local" required={i === 0} />))}</>;
    case 'ScheduleAppointment':
    case 'RescheduleAppointment': {
      const free = application.appointmentSlots.filter((s) => Date.parse(s) > Date.now() && s !== application.appointmentAt);
      return (
        <fieldset>
          <legend>{t('form.chooseSlot')}</legend>
          {free.map((s) => (
            <label key={s} className="choice">
              <input type="radio" name="slot" value={s} required /> {when(s)}
            </label>
          ))}
        </fieldset>
      );
    }
    case 'OfferUnit':
      return (
        <>
          <fieldset>
            <legend>{t('form.chooseUnits')}</legend>
            {(units.data?.units ?? []).map((u) => (
              <label key={u.id} className="choice">
                <input type="checkbox" name="unitIds" value={u.id} /> {t('form.unitLine', { number: u.unitNumber, type: u.bedroomType, rent: u.monthlyRent })}
              </label>
            ))}
          </fieldset>
          {field('expiresDate', t('form.offerExpires'), <input id={`${id}-expiresDate`} name="expiresDate" type="date" />)}
        </>
      );
    case 'RespondToUnitOffer':
      return (
        <>
          <fieldset>
            <legend>{t('form.chooseOffer')}</legend>
            {application.offers
              .filter((o) => o.status === 'open')
              .map((o) => (
                <label key={o.offerId} className="choice">
                  <input type="radio" name="offerId" value={o.offerId} required />{' '}
                  {t('form.offerLine', { number: o.unitNumber, type: o.bedroomType, address: o.address, date: formatDate(o.expiresAt) })}
                </label>
              ))}
          </fieldset>
          <fieldset>
            <legend>{t('form.yourAnswer')}</legend>
            <label className="choice">
              <input type="radio" name="answer" value="accept" required /> {t('form.accept')}
            </label>
            <label className="choice">
              <input type="radio" name="answer" value="decline" /> {t('form.decline')}
            </label>
          </fieldset>
        </>
      );
    case 'SignTIC':
    case 'SignLeaseLetter':
      return (
        <>
          <p>{t(action === 'SignTIC' ? 'sign.ticIntro' : 'sign.leaseIntro')}</p>
          {action === 'SignTIC' && nextTicSigner(application) ? <p className="signing-for">{t('sign.signingFor', { name: nextTicSigner(application)!.name })}</p> : null}
          <SignaturePadField onChange={onSignature} />
        </>
      );
    case 'UpdateInfo':
      return (
        <>
          {field('householdSize', t('form.householdSize'), <input id={`${id}-householdSize`} name="householdSize" type="number" min={1} max={20} defaultValue={application.householdSize} required />)}
          {field('householdIncome', t('form.householdIncome'), <input id={`${id}-householdIncome`} name="householdIncome" type="number" min={0} defaultValue={application.householdIncome} required />)}
        </>
      );
    default:
      return null;
  }
}

/** The next person to sign the TIC (head of household first, then each adult member), if it names them. */
function nextTicSigner(application: ApplicationDetail) {
  return application.tic?.signers?.find((s) => !application.tic!.signatures.some((g) => g.userId === s.id));
}
