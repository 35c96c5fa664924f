/**
 * Texts of the manager's opportunity editor, in the words of spec section 5
 * ('Required', numbers numeric, dates valid, at least one entry) where it has them. No imports: the
 * validation catalogue (domain/validation-catalogue.ts) translates each by its code.
 */
export const OPPORTUNITY_MESSAGES = {
  opportunityNameRequired: 'Name is required',
  unitNumberRequired: 'Unit number is required',
  incomeMinAboveMax: 'Minimum income must not exceed maximum income',
  unitNumberTwice: 'Each unit number may appear only once',
  householdSizeTwice: 'Each household size may appear only once',
  amiBandTwice: 'Each AMI band and layout may appear only once',
  setAsideGroupTwice: 'Each set-aside group may appear only once',
  setAsidesOver100: 'Set-asides must add up to 100% or less',
  percentRange: 'Enter a percentage from 0 to 300',
  daysRange: 'Enter a number of days from 1 to 90',
  graceDaysRange: 'Enter a number of days from 0 to 60',
} as const;
