import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { SignedInStorage } from './browser';
import type { Stack } from './stack';

/** A signed-in user made for a test: an applicant with a complete household, or a manager of an organisation. */
export async function makeUser(
  stack: Stack,
  options: { role: 'User' | 'Manager'; organizationId?: string },
): Promise<{ authorization: string; userId: string; householdId: string | null; storage: SignedInStorage }> {
  const suffix = randomUUID().slice(0, 8);
  const password = `Pw#${suffix}2026x`;
  const user = await stack.db
    .insertInto('users')
    .values({
      username: `u-${suffix}`,
      email: `u-${suffix}@example.org`,
      first_name: options.role === 'Manager' ? 'Other' : 'Second',
      last_name: suffix,
      role: options.role,
      password_hash: await hash(password),
      organization_id: options.organizationId ?? null,
      email_verified: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let householdId: string | null = null;
  if (options.role === 'User') {
    householdId = (await stack.db.insertInto('households').values({ head_user_id: user.id, profile_completion: 100 }).returning('id').executeTakeFirstOrThrow()).id;
  }
  const login = await stack.app.inject({ method: 'POST', url: '/api/Account/login', payload: { username: `u-${suffix}`, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const { accessToken, refreshToken, accessTokenExpiresAt, ...signedIn } = login.json().data;
  // What the web app keeps in local storage, for a browser test signed in as this user.
  const storage = { user: JSON.stringify(signedIn), auth: JSON.stringify({ accessToken, refreshToken, accessTokenExpiresAt }) };
  return { authorization: `Bearer ${accessToken}`, userId: user.id, householdId, storage };
}

/** A second organisation with its own manager. */
export async function otherOrganizationManager(stack: Stack) {
  const slug = `other-${randomUUID().slice(0, 8)}`;
  const org = await stack.db.insertInto('organizations').values({ name: `Other Housing ${slug}`, slug }).returning('id').executeTakeFirstOrThrow();
  return makeUser(stack, { role: 'Manager', organizationId: org.id });
}

/** A valid small PNG as the signature pad sends it. */
export const SIGNATURE_PNG_BASE64 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Applies `who` (signed in) to the first published rental of the seed; the new application's id. */
export async function applyToSeededRental(stack: Stack, who: { authorization: string }): Promise<string> {
  const opportunity = await stack.db.selectFrom('opportunities').select('id').where('published', '=', true).where('kind', '=', 'rental').orderBy('name').executeTakeFirstOrThrow();
  const applied = await stack.app.inject({
    method: 'POST',
    url: '/api/LeaseUpApplication/apply',
    headers: { authorization: who.authorization },
    payload: { opportunityId: opportunity.id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true },
  });
  if (applied.statusCode !== 201) throw new Error(`apply: ${applied.body}`);
  return applied.json().data.applicationId as string;
}

/** A first-come rental with one unit, as a manager enters it (POST /api/Opportunity/manage), open for `days` more days. */
export function rentalInput(name: string, days = 30) {
  return {
    name,
    kind: 'rental',
    building: 'Building A',
    address: '300 E 140th St, Bronx, NY 10454',
    lotteryEndDate: new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10),
    units: [{ unitNumber: '1A', bedroomType: 'Studio', monthlyRent: 1100, amiPercent: 50 }],
    requirements: [{ amiPercent: 50, layout: 'Studio', monthlyRent: 1100 }],
    incomeRanges: [{ householdSize: 2, min: 30_000, max: 90_000 }],
  };
}
