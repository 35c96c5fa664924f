import type { RelocationInputs, RelocationView } from '../domain/relocation';
import { RELOCATION_ACTIONS } from '../domain/relocation.table';
import { caseMessages } from './case/messages';

/** Messages of the relocation workflow, generated from its action table (imported by the API). */
export const relocationMessages = caseMessages<RelocationInputs, 'tenant' | 'manager', RelocationView>(RELOCATION_ACTIONS);
export const relocationUpdates = relocationMessages.updates;
export const getRelocationView = relocationMessages.getView;
