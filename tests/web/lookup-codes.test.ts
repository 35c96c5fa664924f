import { describe, expect, it } from 'vitest';
import { offeredCodes } from '../../web/src/features/profile/components/fields';

// Spec section 3: the profile's selects offer what `GET /api/Lookups` lists, among what the form's schema accepts.
describe('lookup selects', () => {
  const accepted = ['male', 'female', 'prefer_not_to_say'] as const;

  it("offers the server's codes in the server's order, leaving out those it retired", () => {
    expect(offeredCodes(accepted, ['female', 'male'])).toEqual(['female', 'male']);
  });

  it('never offers a code the form would refuse', () => {
    expect(offeredCodes(accepted, ['female', 'unknown_code', 'male'])).toEqual(['female', 'male']);
  });

  it("keeps the form's own list until the lookups arrive, or when they share no code with it", () => {
    expect(offeredCodes(accepted, undefined)).toEqual(accepted);
    expect(offeredCodes(accepted, ['something_else'])).toEqual(accepted);
  });
});
