/**
 * Spec section 5 texts used by the shared schemas that are not in a feature's own message group
 * (MEMBER_MESSAGES, DOCUMENT_MESSAGES...). No imports: every schema module may use them.
 */
export const FORM_MESSAGES = {
  zeroOrMore: 'Must be zero or more',
  invalidId: 'Invalid id',
  last4: 'Enter the last 4 digits (numbers only)',
  zip: 'Enter a valid ZIP code',
  mailingLine1: 'Mailing address line 1 is required',
  answerRequired: 'Answer required',
  atLeastOneEntry: 'At least one entry is required',
  atLeastOneMember: 'At least one member is required',
  selectIncomeType: 'Select an income type',
  selectAssetType: 'Select an asset type',
  zeroIncomeMustBeZero: 'Zero income must be 0',
  taxReturnYears: 'At most 3 tax return years',
  taxYear: 'Enter a tax year such as 2025',
  addressRequired: 'Address is required',
  invalidDate: 'Invalid date',
} as const;
