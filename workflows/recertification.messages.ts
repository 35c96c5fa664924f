import type { RecertInputs, RecertView } from '../domain/recertification';
import { RECERT_ACTIONS } from '../domain/recertification.table';
import { caseMessages } from './case/messages';

/** Messages of the recertification workflow, generated from its action table (imported by the API). */
export const recertificationMessages = caseMessages<RecertInputs, 'tenant' | 'manager', RecertView>(RECERT_ACTIONS);
export const recertificationUpdates = recertificationMessages.updates;
export const getRecertificationView = recertificationMessages.getView;
