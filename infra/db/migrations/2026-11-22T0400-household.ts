import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit after it has run anywhere; add a new migration instead.

/** Lookup values as of this migration (spec section 3 enumerations); labels are translated by code in the web app. */
const LOOKUPS: Record<string, string[]> = {relationship: ['self','sister','child','parent','spouse','niece','daughter','brother','grandchild','grandparent','other_adult_member'],
  gender: ['male','female','prefer_not_to_say'],
  race: ['american_indian_or_alaska_native','white','black_or_african_american','asian','native_hawaiian_or_pacific_islander','choose_not_to_provide'],
  ethnicity: ['hispanic_or_latino','not_hispanic_or_latino'],
  maritalStatus: ['single','married','divorced','separated','widowed','domestic_partnership'],
  studentStatus: ['not_a_student','full_time','part_time'],
  studentEligibility: ['not_applicable','eligible','not_eligible'],
  incomeType: ['employment','self_employment','social_security','ssi','ssp','pension','veterans','disability','unemployment','workers_compensation','public_assistance','military_pay','contributions','asset_income','long_term_care','grants','other','zero_income','alimony_child_support','lump_sum','anticipated_change','gig_economy','income_tax_refund'],
  payFrequency: ['annually','monthly','hourly','quarterly','bi_weekly','weekly','semimonthly','one_time'],
  gigPlatformCategory: ['rideshare','delivery','freelance','home_services','rental_platform','other'],
  supportAgreementType: ['court_order','written_agreement','informal'],
  contributionType: ['cash','rent_paid','bills_paid','groceries','other'],
  zeroIncomeDuration: ['less_than_3_months','3_to_6_months','6_to_12_months','more_than_12_months'],
  assetKind: ['BankAccounts','RetirementAccounts','InvestmentAssets','RealEstateAssets','OtherAssets','DisposedAssets','TrustAssets','LifeInsuranceAssets','CashBalance','EBTCards'],
  bankAccountType: ['certificate_of_deposit','checking','savings'],
  retirementType: ['annuity','pension','ira','401k'],
  investmentType: ['bonds','cryptocurrency','stocks','mutual_funds'],
  realEstateType: ['land','building','home'],
  trustType: ['revocable','irrevocable'],
  lifeInsuranceType: ['whole_life','universal','term'],
  housingInterest: ['reRental','section8','supportiveHousing','mitchellLama','publicHousing'],
  unitSize: ['studio','one_bedroom','two_bedroom','three_bedroom','four_plus_bedroom'],
  county: ['bronx','kings','new_york','queens','richmond'],
  setAside: ['senior','veteran','disability','homeless','artist'],
  accessibility: ['mobility','hearing','vision'],
  rentalAssistanceType: ['section8_voucher','cityfheps','fheps','hasa','other'],
  documentType: ['pay_stub','bank_statement','retirement_statement','award_letter','tax_return','form_1099','employer_letter','benefit_letter','support_agreement','zero_income_affidavit','identity','rental_assistance_proof','other'],
  language: ['en','es','zh','bn']};

export async function up(db: Kysely<any>): Promise<void> {
  const ts = (c: any) => c.notNull().defaultTo(sql`now()`);
  await db.schema
    .createTable('household_members')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('relationship', 'text', (c) => c.notNull())
    .addColumn('date_of_birth', 'date', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    // Identifiers: AES-256-GCM ciphertext (infra/crypto.ts) and the last 4 digits; never the plain number.
    .addColumn('ssn_encrypted', 'text')
    .addColumn('ssn_last4', 'text')
    .addColumn('itin_encrypted', 'text')
    .addColumn('itin_last4', 'text')
    .addColumn('alien_number_encrypted', 'text')
    .addColumn('alien_number_last4', 'text')
    .addColumn('races', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('ethnicity', 'text', (c) => c.notNull())
    .addColumn('marital_status', 'text', (c) => c.notNull())
    .addColumn('disability', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('student_status', 'text', (c) => c.notNull())
    .addColumn('student_eligibility', 'text', (c) => c.notNull())
    .addColumn('emancipated_minor', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('pregnant', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('pregnancy_child_count', 'integer')
    .addColumn('expected_delivery_date', 'date')
    .addColumn('head_of_household', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('email', 'text')
    .addColumn('mobile', 'text')
    .addColumn('preferred_language', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('created_at', 'timestamptz', ts)
    .addColumn('updated_at', 'timestamptz', ts)
    .execute();
  await db.schema.createIndex('household_members_household').on('household_members').column('household_id').execute();

  await db.schema
    .createTable('household_incomes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('member_id', 'uuid', (c) => c.notNull().references('household_members.id').onDelete('cascade'))
    .addColumn('income_type', 'text', (c) => c.notNull())
    .addColumn('amount', sql`numeric(14,2)`, (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull())
    // Every field of the entry as validated by domain/income.ts (type-specific fields included).
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', ts)
    .addColumn('updated_at', 'timestamptz', ts)
    .execute();
  await db.schema.createIndex('household_incomes_household').on('household_incomes').column('household_id').execute();

  // Annual income per household (recertification's income band reads it; api/services/household-income-total.ts).
  await sql`create view household_income_totals as
    select household_id, sum(amount * case frequency
      when 'monthly' then 12 when 'hourly' then 2080 when 'quarterly' then 4 when 'bi_weekly' then 26
      when 'weekly' then 52 when 'semimonthly' then 24 else 1 end)::numeric(14,2) as annual_total
    from household_incomes where income_type <> 'zero_income' group by household_id`.execute(db);

  await db.schema
    .createTable('household_assets')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('member_id', 'uuid', (c) => c.references('household_members.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', ts)
    .addColumn('updated_at', 'timestamptz', ts)
    .execute();
  await db.schema.createIndex('household_assets_household').on('household_assets').column('household_id').execute();

  // One row per household: address, housing choices, questions and submission state.
  await db.schema
    .createTable('household_profiles')
    .addColumn('household_id', 'uuid', (c) => c.primaryKey().references('households.id').onDelete('cascade'))
    .addColumn('address', 'jsonb')
    .addColumn('preferences', 'jsonb')
    .addColumn('has_income', 'boolean')
    .addColumn('has_assets', 'boolean')
    .addColumn('asset_flags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('eligibility', 'jsonb')
    .addColumn('special_income', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('completed_at', 'timestamptz')
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', ts)
    .execute();

  await db.schema
    .createTable('rental_assistance')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', ts)
    .execute();

  await db.schema
    .createTable('household_documents')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('household_id', 'uuid', (c) => c.notNull().references('households.id').onDelete('cascade'))
    .addColumn('member_id', 'uuid', (c) => c.references('household_members.id').onDelete('set null'))
    .addColumn('income_id', 'uuid', (c) => c.references('household_incomes.id').onDelete('set null'))
    .addColumn('asset_id', 'uuid', (c) => c.references('household_assets.id').onDelete('set null'))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('uploaded_by', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('uploaded_at', 'timestamptz', ts)
    .addColumn('review_reason', 'text')
    .addColumn('rejected_by_manager', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('needs_review', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('rejection_reason', 'text')
    .addColumn('discrepancy_reason', 'text')
    .addColumn('replaces_document_id', 'uuid')
    .addColumn('is_tenant_signed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('household_documents_household').on('household_documents').column('household_id').execute();

  await db.schema
    .createTable('lookups')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addPrimaryKeyConstraint('lookups_pk', ['category', 'code'])
    .execute();
  const rows = Object.entries(LOOKUPS).flatMap(([category, codes]) => codes.map((code, i) => ({ category, code, sort_order: i })));
  await db.insertInto('lookups').values(rows).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop view if exists household_income_totals`.execute(db);
  for (const table of ['lookups', 'household_documents', 'rental_assistance', 'household_profiles', 'household_assets', 'household_incomes', 'household_members']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
