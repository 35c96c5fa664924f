import { seedDemoLottery } from './seed-lottery';
import { hash } from '@node-rs/argon2';
import type { Role } from '../domain';
import type { BlobStore } from './blobs';
import { hasDataKeys, sealNumber } from './data-keys';
import type { Db } from './db/database';
import { seedHouseholdProfile } from './seed-household';
import demo from './demo-accounts.json' with { type: 'json' };
import { DAY } from '../domain/time';

interface DemoAccount {
  role: Role;
  username: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

const declaredIncome = (amount: number) =>
  hasDataKeys() ? { declared_annual_income: null, declared_annual_income_encrypted: sealNumber(amount) } : { declared_annual_income: amount };

function isoDate(daysFromNow: number, now: Date): string {
  return new Date(now.getTime() + daysFromNow * DAY).toISOString().slice(0, 10);
}

export interface SeedOptions {
  /** Where the demo pay stubs are written (npm start and the test stack give it). */
  blobs?: BlobStore;
  /** Also the demo lottery with 300 households, ready to draw (npm start; tests make their own). */
  lottery?: boolean;
}

/**
 * Demo data for the embedded default: one organisation, one account per role, households for the
 * applicant and the tenant, and published opportunities with units. Runs once: a database that
 * already has users is left alone. Income amounts are sealed when the process has its data keys
 * (infra/data-keys.ts); a seed without them writes rows the API's start-up sweep seals later.
 */
export async function seedDemoData(db: Db, now = new Date(), options: SeedOptions = {}): Promise<boolean> {
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return false;

  await db.transaction().execute(async (trx) => {
    const org = await trx
      .insertInto('organizations')
      .values({ name: demo.organization.name, slug: demo.organization.slug, email: 'office@riverside.example.org', phone: '2125550100' })
      .returning('id')
      .executeTakeFirstOrThrow();

    // The managing agent's resident list, for trying tenant profile matching (/riverside/register).
    const building = { building_id: '0b5c3a52-6f0e-4d8e-9a7b-3c2d1e0f9a11', building_name: 'Riverside Commons', building_address: '410 Riverside Dr, New York, NY 10025' };
    await trx
      .insertInto('tenant_roster')
      .values([
        { organization_id: org.id, ...building, unit_number: '3A', first_name: 'Maria', last_name: 'Santos', date_of_birth: '1958-04-12', email: 'maria.santos@example.org', phone: '2125550161' },
        { organization_id: org.id, ...building, unit_number: '5C', first_name: 'Wei', last_name: 'Zhang', date_of_birth: '1972-09-30', email: 'wei.zhang@example.org', phone: '2125550162' },
      ])
      .execute();

    for (const account of demo.accounts as DemoAccount[]) {
      const user = await trx
        .insertInto('users')
        .values({
          username: account.username,
          email: account.email,
          phone_number: '2125550142',
          first_name: account.firstName,
          last_name: account.lastName,
          role: account.role,
          password_hash: await hash(account.password),
          organization_id: account.role === 'User' ? null : org.id,
          email_verified: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (account.role === 'User' || account.role === 'Tenant') {
        const seeded = await trx
          .insertInto('households')
          .values({
            head_user_id: user.id,
            organization_id: account.role === 'Tenant' ? org.id : null,
            household_size: 2,
            profile_completion: 100,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await seedHouseholdProfile(trx, {
          householdId: seeded.id,
          headUserId: user.id,
          fullName: `${account.firstName} ${account.lastName}`,
          email: account.email,
          spouseName: account.role === 'Tenant' ? 'Marisol Ortega' : 'Karim Rahman',
          blobs: options.blobs,
        });
      }
      if (account.role === 'Tenant') {
        // The tenant's lease: its anniversary, 100 days from now, opens an annual recertification.
        const household = await trx.selectFrom('households').select('id').where('head_user_id', '=', user.id).executeTakeFirstOrThrow();
        const anniversary = new Date(now.getTime() + 100 * DAY);
        anniversary.setUTCFullYear(anniversary.getUTCFullYear() - 2);
        await trx
          .insertInto('tenancies')
          .values({ household_id: household.id, organization_id: org.id, building_name: 'Riverside Commons', address: '410 Riverside Dr, New York, NY 10025', unit_number: '4B', bedrooms: '2 bedrooms', building_latitude: 40.8106, building_longitude: -73.9667, lease_start: anniversary.toISOString().slice(0, 10), ...declaredIncome(52_000) })
          .execute();
      }
    }

    const opportunities = [
      { name: 'Riverside Commons', kind: 'rental' as const, address: '410 Riverside Dr, New York, NY 10025', days: 45, rent: 1450 },
      { name: 'Harlem Gardens', kind: 'rental' as const, address: '22 W 135th St, New York, NY 10037', days: 20, rent: 1180 },
      { name: 'Bronx Park Homes', kind: 'ownership' as const, address: '900 Pelham Pkwy, Bronx, NY 10462', days: 60, rent: 2100 },
    ];
    for (const o of opportunities) {
      const row = await trx
        .insertInto('opportunities')
        .values({
          organization_id: org.id,
          name: o.name,
          kind: o.kind,
          address: o.address,
          description: `${o.name} offers affordable ${o.kind === 'rental' ? 'rental apartments' : 'homes for purchase'} through a housing lottery.`,
          amenities: JSON.stringify(['Elevator', 'Laundry room', 'Bike storage', 'Community room']),
          requirements: JSON.stringify([
            { amiPercent: 60, layout: 'Studio', monthlyRent: o.rent - 250 },
            { amiPercent: 60, layout: '1 bedroom', monthlyRent: o.rent },
            { amiPercent: 80, layout: '2 bedrooms', monthlyRent: o.rent + 400 },
          ]),
          income_ranges: JSON.stringify([
            { householdSize: 1, min: 42_000, max: 86_960 },
            { householdSize: 2, min: 48_000, max: 99_440 },
            { householdSize: 3, min: 54_000, max: 111_840 },
            { householdSize: 4, min: 60_000, max: 124_240 },
          ]),
          lottery_end_date: isoDate(o.days, now),
          published: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('units')
        .values([
          { opportunity_id: row.id, unit_number: '2A', bedroom_type: 'Studio', address: o.address, accessibility: JSON.stringify([]), monthly_rent: o.rent - 250, ami_percent: 60 },
          { opportunity_id: row.id, unit_number: '3B', bedroom_type: '1 bedroom', address: o.address, accessibility: JSON.stringify(['Mobility']), monthly_rent: o.rent, ami_percent: 60 },
          { opportunity_id: row.id, unit_number: '5C', bedroom_type: '2 bedrooms', address: o.address, accessibility: JSON.stringify(['Hearing', 'Vision']), monthly_rent: o.rent + 400, ami_percent: 80 },
        ])
        .execute();
    }
  });
  if (options.lottery) {
    const org = await db.selectFrom('organizations').select('id').where('slug', '=', demo.organization.slug).executeTakeFirstOrThrow();
    const applicant = await db.selectFrom('users').select('id').where('role', '=', 'User').where('username', '=', 'applicant').executeTakeFirstOrThrow();
    await seedDemoLottery(db, org.id, applicant.id, now);
  }
  return true;
}
