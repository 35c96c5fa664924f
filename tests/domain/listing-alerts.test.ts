import { describe, expect, it } from 'vitest';
import { AlertCriteria, alertMatches, digestWeek, listingSizes, nextDigestWeek, PublicSubscribeInput, unitSizeOf, type AlertListing } from '../../domain/listing-alerts';

const listing = (over: Partial<AlertListing> = {}): AlertListing => ({
  kind: 'rental',
  area: 'bronx',
  units: [
    { bedroomType: 'Studio', accessibility: [] },
    { bedroomType: '2 bedrooms', accessibility: ['Mobility accessible', 'Hearing'] },
  ],
  incomeRanges: [
    { householdSize: 1, min: 20_000, max: 60_000 },
    { householdSize: 3, min: 35_000, max: 90_000 },
  ],
  setAsideGroups: ['senior'],
  ...over,
});
const criteria = (input: Parameters<typeof AlertCriteria.parse>[0] = {}) => AlertCriteria.parse(input);

describe('listing alert matching', () => {
  it('reads the bedroom types managers type as unit sizes', () => {
    expect(['Studio', 'studio apartment', '0 BR', '1 bedroom', '1BR', '2 bedrooms', '3 Bedroom', '4+ bedrooms', '5 bedrooms', 'Loft'].map(unitSizeOf)).toEqual([
      'studio', 'studio', 'studio', 'one_bedroom', 'one_bedroom', 'two_bedroom', 'three_bedroom', 'four_plus_bedroom', 'four_plus_bedroom', null,
    ]);
    expect(listingSizes(listing()).sort()).toEqual(['studio', 'two_bedroom']);
  });

  it('an empty alert fits every listing', () => {
    expect(alertMatches(criteria(), listing())).toBe(true);
    expect(alertMatches(criteria(), listing({ kind: 'ownership', area: null }))).toBe(true);
  });

  it('follows tenure and area; a listing with no area fits only alerts for any area', () => {
    expect(alertMatches(criteria({ tenure: 'ownership' }), listing())).toBe(false);
    expect(alertMatches(criteria({ tenure: 'rental', areas: ['bronx', 'queens'] }), listing())).toBe(true);
    expect(alertMatches(criteria({ areas: ['queens'] }), listing())).toBe(false);
    expect(alertMatches(criteria({ areas: ['bronx'] }), listing({ area: null }))).toBe(false);
  });

  it('needs one unit of an asked size that has every asked accessibility feature', () => {
    expect(alertMatches(criteria({ bedroomTypes: ['one_bedroom'] }), listing())).toBe(false);
    expect(alertMatches(criteria({ bedroomTypes: ['one_bedroom', 'two_bedroom'] }), listing())).toBe(true);
    expect(alertMatches(criteria({ accessibility: ['mobility', 'hearing'] }), listing())).toBe(true);
    // The studio has no features and the accessible unit is not a studio: nothing fits both.
    expect(alertMatches(criteria({ bedroomTypes: ['studio'], accessibility: ['mobility'] }), listing())).toBe(false);
    expect(alertMatches(criteria({ accessibility: ['vision'] }), listing())).toBe(false);
  });

  it('follows the listing\'s income range for the household size, bounds included', () => {
    expect(alertMatches(criteria({ householdSize: 2 }), listing())).toBe(false);
    expect(alertMatches(criteria({ householdSize: 3 }), listing())).toBe(true);
    expect(alertMatches(criteria({ householdSize: 3, yearlyIncome: 35_000 }), listing())).toBe(true);
    expect(alertMatches(criteria({ householdSize: 3, yearlyIncome: 90_000 }), listing())).toBe(true);
    expect(alertMatches(criteria({ householdSize: 3, yearlyIncome: 34_999 }), listing())).toBe(false);
    expect(alertMatches(criteria({ householdSize: 3, yearlyIncome: 90_001 }), listing())).toBe(false);
    // A listing that sets no ranges limits no size or income.
    expect(alertMatches(criteria({ householdSize: 7, yearlyIncome: 1 }), listing({ incomeRanges: [] }))).toBe(true);
  });

  it('with set-aside groups, needs units set aside for one of them', () => {
    expect(alertMatches(criteria({ setAsideGroups: ['senior', 'disability'] }), listing())).toBe(true);
    expect(alertMatches(criteria({ setAsideGroups: ['disability'] }), listing())).toBe(false);
    expect(alertMatches(criteria({ setAsideGroups: ['senior'] }), listing({ setAsideGroups: [] }))).toBe(false);
  });

  it('refuses unknown criteria, and a visitor gives exactly one contact and no "use my profile"', () => {
    expect(AlertCriteria.safeParse({ bedroomTypes: ['castle'] }).success).toBe(false);
    expect(AlertCriteria.safeParse({ pets: true }).success).toBe(false);
    expect(PublicSubscribeInput.safeParse({ email: 'a@example.org', criteria: {} }).success).toBe(true);
    expect(PublicSubscribeInput.safeParse({ phone: '+1 212 555 0100', criteria: {} }).success).toBe(true);
    expect(PublicSubscribeInput.safeParse({ criteria: {} }).success).toBe(false);
    expect(PublicSubscribeInput.safeParse({ email: 'a@example.org', phone: '+12125550100', criteria: {} }).success).toBe(false);
    expect(PublicSubscribeInput.safeParse({ email: 'a@example.org', criteria: { useProfile: true } }).success).toBe(false);
  });

  it('keys a digest by the Monday of its week', () => {
    expect(digestWeek(new Date('2026-12-02T13:00:00Z'))).toBe('2026-11-30');
    expect(digestWeek(new Date('2026-12-06T23:59:59Z'))).toBe('2026-11-30');
    expect(digestWeek(new Date('2026-12-07T00:00:00Z'))).toBe('2026-12-07');
    expect(nextDigestWeek('2026-12-28')).toBe('2027-01-04');
  });
});
