import { useId } from 'react';
import type { ApplicationDetail, LeaseUpAction } from '../../../lib/domain';
import type { ActionPayload } from '../api/run-action';
import { ChooseAppointment } from './actions/choose-appointment';
import { formReader, type ActionForm } from './actions/form-kit';
import { OfferUnit } from './actions/offer-unit';
import { ProceedToAppointmentScheduling } from './actions/proceed-to-appointment-scheduling';
import { RejectDocuments } from './actions/reject-documents';
import { RequestAdditionalDocuments } from './actions/request-additional-documents';
import { RespondToUnitOffer } from './actions/respond-to-unit-offer';
import { SignLeaseLetter, SignTIC } from './actions/sign-letter';
import { SubmitAdditionalDocuments } from './actions/submit-additional-documents';
import { UpdateInfo } from './actions/update-info';

/** The form of each action that asks for more than a confirmation, one file per action under ./actions. */
const FORMS: Partial<Record<LeaseUpAction, ActionForm>> = {
  RejectDocuments,
  RequestAdditionalDocuments,
  SubmitAdditionalDocuments,
  ProceedToAppointmentScheduling,
  ScheduleAppointment: ChooseAppointment,
  RescheduleAppointment: ChooseAppointment,
  OfferUnit,
  RespondToUnitOffer,
  SignTIC,
  SignLeaseLetter,
  UpdateInfo,
};

/** Actions whose form asks for more than a confirmation. */
export const ACTIONS_WITH_FIELDS = Object.keys(FORMS) as readonly LeaseUpAction[];

/** Reads the form of `action` into the payload its endpoint takes; null when something is missing. */
export function readPayload(action: LeaseUpAction, form: FormData, application: ApplicationDetail, signature: string | null): ActionPayload | null {
  const actionForm = FORMS[action];
  return actionForm ? actionForm.read(formReader(form), application, signature) : {};
}

/** The inputs of one action's form. */
export function ActionFields({ action, application, onSignature }: { action: LeaseUpAction; application: ApplicationDetail; onSignature: (png: string | null) => void }) {
  const id = useId();
  const actionForm = FORMS[action];
  return actionForm ? <actionForm.Fields application={application} id={id} onSignature={onSignature} /> : null;
}
