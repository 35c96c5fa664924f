import { BANK_MESSAGES, DATE_MESSAGE, DOCUMENT_MESSAGES, MEMBER_MESSAGES, NUMBER_MESSAGE, REASON_MESSAGE, REQUIRED, ZERO_INCOME_MESSAGES } from '../../../lib/domain';

/** The shared schemas speak English (the spec's texts); the web app translates them by these keys. */
const KEYS: Record<string, string> = {
  [REQUIRED]: 'required',
  [NUMBER_MESSAGE]: 'number',
  [DATE_MESSAGE]: 'date',
  [REASON_MESSAGE]: 'reason',
  [MEMBER_MESSAGES.ssnFormat]: 'ssnFormat',
  [MEMBER_MESSAGES.itinFormat]: 'itinFormat',
  [MEMBER_MESSAGES.alienFormat]: 'alienFormat',
  [MEMBER_MESSAGES.identifierRequired]: 'identifierRequired',
  [MEMBER_MESSAGES.applicantAge]: 'applicantAge',
  [MEMBER_MESSAGES.headMinor]: 'headMinor',
  [MEMBER_MESSAGES.phone]: 'phone',
  [MEMBER_MESSAGES.email]: 'email',
  [MEMBER_MESSAGES.raceRequired]: 'raceRequired',
  [MEMBER_MESSAGES.dateOfBirthFuture]: 'dateOfBirthFuture',
  [BANK_MESSAGES.institution]: 'institution',
  'Enter the last 4 digits (numbers only)': 'last4',
  'Mailing address line 1 is required': 'mailingLine1',
  'Enter a valid ZIP code': 'zip',
  'Must be zero or more': 'number',
  [ZERO_INCOME_MESSAGES.explanation]: 'zeroExplanation',
  [DOCUMENT_MESSAGES.bankStatements]: 'bankStatements',
  [DOCUMENT_MESSAGES.retirementStatement]: 'retirementStatement',
  [DOCUMENT_MESSAGES.payStubs]: 'payStubs',
  [DOCUMENT_MESSAGES.fileRequired]: 'fileRequired',
};

export const validationKey = (message: string): string | undefined => KEYS[message];
