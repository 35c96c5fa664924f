import type { ColumnType, Generated } from 'kysely';

type Numeric = ColumnType<string, number | string, number | string>;

/** A tenant household's lease: building, unit and the lease start whose anniversary opens recertification. */
export interface TenancyTable {
  household_id: string;
  organization_id: string;
  building_name: string;
  address: string;
  unit_number: string;
  bedrooms: string;
  /** 'YYYY-MM-DD'; the anniversary of this date is each annual recertification's deadline. */
  lease_start: ColumnType<string, string, string>;
  /** Fallback household income until the household-profile income tables hold entries. */
  declared_annual_income: Numeric | null;
  /** The declared income sealed by infra/crypto.ts; the plain column is only read for older rows. */
  declared_annual_income_encrypted: string | null;
  /** Printed on the recertification TIC; null until the manager records it. */
  monthly_rent: Numeric | null;
  /** Where the building stands (the nearest subway stop on the dashboard); null when not recorded. */
  building_latitude: ColumnType<number | null, number | null | undefined, number | null>;
  building_longitude: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Generated<Date>;
}

/** Configurable 100% AMI by household size (seeded with HUD 2023 New York City). */
export interface AmiLimitTable {
  household_size: number;
  ami_100: Numeric;
  source: string;
}

export interface TenancyTables {
  tenancies: TenancyTable;
  ami_limits: AmiLimitTable;
}
