import type { TimerEvent } from './domain';
import type { LeaseUpState } from './lease-up.state';

/** A durable timer the workflow must start: `token` tells whether it still matters when it fires. */
export interface TimerRequest {
  event: TimerEvent;
  at: string;
  token: string;
}

/** A message to the applicant the workflow hands to the notification activity. */
export interface ApplicantNotice {
  template: string;
  dedupeKey: string;
  params: Record<string, string>;
}

/** A durable timer fired; changes the state only if what it guarded still stands (workflows.md "T" rows). */
export function fireTimer(st: LeaseUpState, timer: TimerRequest, now: string): boolean {
  const still = (() => {
    switch (timer.event) {
      case 'AdditionalDocumentsOverdue':
        return st.status === 'in_review' && st.step === 'additional_documents' && timer.token === `docs-${st.documentRounds}`;
      case 'UnitOfferExpired':
        return st.offers.some((o) => o.offerId === timer.token && o.status === 'open');
      case 'AppealWindowClosed':
        return st.status === 'rejected' && timer.token === `rej-${st.rejections}`;
      case 'AppealDecisionOverdue':
        return st.status === 'appeal_submitted' && timer.token === `appeal-${st.appeals}`;
      case 'AppointmentReminderDay':
      case 'AppointmentReminderHour':
        return st.status === 'in_review' && st.step === 'screening' && timer.token === `appt-${st.bookings}`;
    }
  })();
  if (!still) return false;
  switch (timer.event) {
    case 'AdditionalDocumentsOverdue':
      st.documentsOverdue = true;
      st.addNotice('lease-up-documents-overdue', timer, { dueAt: st.documentsDueAt ?? '' });
      break;
    case 'UnitOfferExpired':
      st.offers.find((o) => o.offerId === timer.token)!.status = 'expired';
      st.addNotice('lease-up-offer-expired', timer, { offerId: timer.token });
      break;
    case 'AppealWindowClosed':
      st.status = 'closed';
      break;
    case 'AppealDecisionOverdue':
      st.appealEscalated = true;
      break;
    case 'AppointmentReminderDay':
    case 'AppointmentReminderHour':
      st.addNotice('lease-up-appointment-reminder', timer, { appointmentAt: st.appointmentAt ?? '' });
      break;
  }
  st.history.push({ at: now, action: timer.event, by: 'system' });
  st.touch(now);
  return true;
}
