import { describe, expect, it } from 'vitest';
import {
  LEASE_UP_TABLE,
  MESSAGES,
  RECERT_TABLE,
  RELOCATION_TABLE,
  sideOn,
  statusOfRefusal,
  type MessageCode,
} from '../../domain';

/** The shared case vocabulary: one HTTP status per refusal, and who the caller is on a case. */
describe('refusals: one status per code, the same in every case kind', () => {
  it('maps who-asks refusals to 403, input refusals to 422, state refusals to 409', () => {
    expect(statusOfRefusal('forbidden')).toBe(403);
    expect(statusOfRefusal('signingWhileImpersonating')).toBe(403);
    expect(statusOfRefusal('validation')).toBe(400);
    expect(statusOfRefusal('reasonRequired')).toBe(422);
    expect(statusOfRefusal('emptySignature')).toBe(422);
    expect(statusOfRefusal('actionNotAllowedNow')).toBe(409);
    expect(statusOfRefusal('appealPeriodPassed')).toBe(409);
  });

  it('gives every code a 4xx', () => {
    for (const code of Object.keys(MESSAGES) as MessageCode[]) {
      const status = statusOfRefusal(code);
      expect(status >= 400 && status < 500, code).toBe(true);
    }
  });

  it('every table names its actors from the same two sides', () => {
    for (const table of [LEASE_UP_TABLE, RECERT_TABLE, RELOCATION_TABLE]) {
      const roles = new Set(Object.values(table).map((row) => row.by));
      expect(roles.size).toBe(2);
      expect(roles.has('manager')).toBe(true);
    }
  });
});

describe('who the caller is on a household case', () => {
  const c = { householdId: 'h1', organizationId: 'o1' };
  it('the household acts on its own cases; managers on their organisation’s; nobody else', () => {
    expect(sideOn({ role: 'User', householdId: 'h1', organizationId: null }, c)).toBe('household');
    expect(sideOn({ role: 'Tenant', householdId: 'h1', organizationId: 'o1' }, c)).toBe('household');
    expect(sideOn({ role: 'Tenant', householdId: 'h2', organizationId: 'o1' }, c)).toBeNull();
    expect(sideOn({ role: 'Manager', householdId: null, organizationId: 'o1' }, c)).toBe('manager');
    expect(sideOn({ role: 'Manager', householdId: 'h1', organizationId: 'o2' }, c)).toBeNull();
    expect(sideOn({ role: 'HousingAmbassador', householdId: 'h1', organizationId: 'o1' }, c)).toBeNull();
    expect(sideOn({ role: 'Admin', householdId: null, organizationId: 'o1' }, c)).toBeNull();
    expect(sideOn({ role: 'Manager', householdId: null, organizationId: null }, { householdId: 'h1', organizationId: null as never })).toBeNull();
  });
});
