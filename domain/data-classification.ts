import { CASE_SEARCH_ATTRIBUTES, type CaseSearchAttributeName } from './case-search';

/**
 * Every column the portal stores, every Temporal search attribute and memo field, and what it
 * holds. tests/infra/data-classification.test.ts reads the live schema after the migrations and
 * fails on a column missing here (or listed here but gone), and on a column classified encrypted
 * that holds a plain value once the test has entered every kind of personal data. A new column is
 * therefore classified by whoever adds it, in the same change.
 *
 * - `encrypted`: personal, sealed by the data key (infra/crypto.ts, infra/data-keys.ts). `form` says
 *   how the test recognises the ciphertext:
 *   - `field`: a text `v2:<key id>:<iv>:<tag>:<body>` value (FieldCipher);
 *   - `sealed-json`: a jsonb `{"$sealed": "<v2 value>"}` (sealJson);
 *   - `sealed-json-text`: the same, written into a text column;
 *   - `emptied`: a plain column kept only for rows written before its sealed twin existed; null once
 *     the start-up sweep or `npm run keys:rotate` has sealed the row.
 * - `hashed`: personal, kept only as a hash (or keyed hash) to compare, never to read back.
 * - `plain`: personal and stored in plain, with the reason it has to be.
 * - `none`: not personal (ids, states, dates, settings, public content, hashes of secrets).
 */
export type EncryptedForm = 'field' | 'sealed-json' | 'sealed-json-text' | 'emptied';
export type DataClass = { class: 'encrypted'; form: EncryptedForm } | { class: 'hashed' } | { class: 'plain'; reason: string } | { class: 'none' };

const field: DataClass = { class: 'encrypted', form: 'field' };
const sealedJson: DataClass = { class: 'encrypted', form: 'sealed-json' };
const sealedJsonText: DataClass = { class: 'encrypted', form: 'sealed-json-text' };
const emptied: DataClass = { class: 'encrypted', form: 'emptied' };
const hashed: DataClass = { class: 'hashed' };
const none: DataClass = { class: 'none' };
const plain = (reason: string): DataClass => ({ class: 'plain', reason });

/** Columns every projected case table shares. */
const caseColumns = {
  id: none,
  workflow_id: none,
  household_id: none,
  organization_id: none,
  pending_tasks: none,
  state_updated_at: none,
  state_version: none,
  projected_at: none,
} as const;

const NAME_REASON = 'a name is shown in lists and letters and searched by the office in SQL (case and roster search)';
const CONTACT_REASON = 'the address notices are sent to and a sign-in is matched by';
/** Answers no rule reads in SQL: kept plain today only because they are shown back as typed; the next to seal. */
const ANSWER_REASON = 'a profile answer shown back to the household and to the reviewing office; no rule reads it in SQL, so it is the next candidate for sealing';

export const DATA_CLASSIFICATION: Record<string, Record<string, DataClass>> = {
  access_grants: {
    id: none, user_id: none, organization_id: none, requested_by: none, status: none, channel: none, period_days: none, requested_at: none,
    pending_until: none, granted_at: none, granted_via: none, expires_at: none, ended_at: none, ended_by: none, version: none, created_at: none,
  },
  ambassador_organizations: { ambassador_user_id: none, organization_id: none, created_at: none },
  ami_limits: { household_size: none, ami_100: none, source: none },
  application_log_numbers: { application_id: none, number: none, created_at: none },
  application_match_keys: { application_id: none, opportunity_id: none, match_key: hashed, created_at: none },
  applications: {
    ...caseColumns,
    opportunity_id: none,
    applicant_user_id: none,
    log_number: none,
    status: none,
    current_step: none,
    household_size: plain('the office checks occupancy and the lottery its fit to units in SQL; a count, not an identifier'),
    household_income: emptied,
    household_income_encrypted: field,
    applied_at: none,
    held_unit_id: none,
    view: plain('the case timeline (steps, tasks, dates, document states) served once the history is gone; the declared income is left out of it and sealed in its own column'),
    lottery_rank: none,
    lottery_groups: none,
    lottery_group_positions: none,
    lottery_skip_reason: none,
    invited_at: none,
    waitlist_state: none,
    waitlist_state_at: none,
    waitlist_state_reason: none,
    declined_bedroom_types: none,
    waitlist_confirmed_at: none,
    waitlist_next_check_in_at: none,
    channel: none,
    postmark_date: none,
    paper_form_document_id: none,
    entered_by: none,
    purged_at: none,
  },
  appointment_bookings: { opportunity_id: none, slot: none, application_id: none, booked_at: none },
  auth_throttles: { key: plain('the sign-in throttle counts failures per IP address and account (a name is hashed), for its window only'), failures: none, first_failed_at: none, last_failed_at: none, blocked_until: none, notified_at: none },
  bulk_batch_cases: { batch_id: none, case_id: none, status: none, refusal: none, finished_at: none },
  bulk_batches: { id: none, organization_id: none, created_by: none, action: none, input: none, status: none, total: none, state_version: none, created_at: none, finished_at: none },
  certification_records: { case_id: none, household_id: none, approved_at: none, facts_sealed: sealedJsonText, recorded_at: none },
  chat_conversations: { household_id: none, organization_id: none, last_message_at: none, created_at: none },
  chat_messages: {
    id: none, household_id: none, organization_id: none, sender_user_id: none, sender_side: none, body_encrypted: field, document_id: none,
    pinned: none, deleted_at: none, created_at: none, kind: none, request_key: hashed,
  },
  chat_reads: { household_id: none, organization_id: none, user_id: none, seen_up_to: none },
  document_extractions: {
    id: none, household_id: none, document_id: none, document_type: none, status: none, result_sealed: sealedJsonText, failure: none,
    requested_at: none, finished_at: none, confirmed_at: none,
  },
  faq_categories: { id: none, slug: none, position: none, name: none, updated_at: none },
  faq_questions: { id: none, category_id: none, position: none, question: none, answer: none, updated_at: none },
  favorite_opportunities: { user_id: none, opportunity_id: none, is_favorite: none, updated_at: none },
  household_assets: {
    id: none, household_id: none, member_id: none,
    kind: plain('the kind of asset (bank account, trust...) drives the asset questions and required documents in SQL; no figure or institution'),
    details: sealedJson, created_at: none, updated_at: none,
  },
  idempotent_requests: {
    key_hash: hashed, user_id: none, fingerprint: hashed, locked_until: none, lease_token: none, status_code: none, response_encrypted: field, created_at: none,
  },
  household_documents: {
    id: none, household_id: none, member_id: none, income_id: none, asset_id: none, document_type: none,
    file_name: plain('the name the household gave its file, shown in its document list and to the reviewing office (the file itself is sealed)'),
    blob_key: none, content_type: none, size_bytes: none, uploaded_by: none, uploaded_at: none, review_reason: none, rejected_by_manager: none,
    needs_review: none, rejection_reason: none, discrepancy_reason: none, replaces_document_id: none, is_tenant_signed: none, pay_date: none,
    accepted_at: none, reviewed_by: none, reviewed_at: none,
  },
  household_incomes: {
    id: none, household_id: none, member_id: none,
    income_type: plain('the kind of income (employment, pension...) decides the documents asked for, in SQL; no amount or source'),
    amount: emptied, frequency: none, details: sealedJson, created_at: none, updated_at: none, amount_encrypted: field,
  },
  household_members: {
    id: none, household_id: none,
    full_name: plain(NAME_REASON),
    relationship: plain('who is who in the household is shown on every case and on the income certification'),
    date_of_birth: plain('ages decide adult signers and the lottery\'s senior group; the paper-duplicate check and the tenant match compare it'),
    gender: plain(ANSWER_REASON),
    ssn_encrypted: field, ssn_last4: plain('the only form in which an identifier is shown (last 4 digits)'),
    itin_encrypted: field, itin_last4: plain('the only form in which an identifier is shown (last 4 digits)'),
    alien_number_encrypted: field, alien_number_last4: plain('the only form in which an identifier is shown (last 4 digits)'),
    races: plain(ANSWER_REASON), ethnicity: plain(ANSWER_REASON),
    marital_status: plain(ANSWER_REASON), disability: plain('decides the lottery\'s disability group and is printed on the income certification'),
    student_status: plain('printed on the income certification (student flag)'), student_eligibility: plain(ANSWER_REASON),
    emancipated_minor: plain(ANSWER_REASON), pregnant: plain(ANSWER_REASON),
    pregnancy_child_count: plain(ANSWER_REASON), expected_delivery_date: plain(ANSWER_REASON),
    head_of_household: none, email: plain(CONTACT_REASON), mobile: plain(CONTACT_REASON),
    preferred_language: none, created_at: none, updated_at: none,
  },
  household_profiles: {
    household_id: none,
    address: plain('the home address letters are mailed to and the office verifies'),
    preferences: plain('housing choices: their presence completes the profile in SQL, and the case file shows them'),
    has_income: none, has_assets: none, asset_flags: none,
    eligibility: plain(ANSWER_REASON),
    special_income: plain(ANSWER_REASON),
    completed_at: none, submitted_at: none, updated_at: none,
  },
  households: {
    id: none, head_user_id: none, organization_id: none,
    household_size: plain('a count: it picks the AMI limit of the income certification; not an identifier'),
    profile_completion: none, created_at: none, login: none, language: none,
    mailing_address_sealed: field, claim_code_hash: hashed, claimed_at: none, claim_code_expires_at: none, claimed_from_user_id: none,
  },
  impersonation_audit: { id: none, real_user_id: none, acting_user_id: none, event: none, method: none, path: none, status_code: none, created_at: none },
  intake_conversations: { user_id: none, household_id: none, state: sealedJson, paused: none, updated_at: none },
  known_devices: { id: none, user_id: none, token_hash: hashed, failures: none, created_at: none, last_used_at: none, revoked_at: none },
  kysely_migration: { name: none, timestamp: none },
  kysely_migration_lock: { id: none, is_locked: none },
  lookups: { category: none, code: none, sort_order: none, active: none },
  lottery_duplicate_pairs: {
    id: none, opportunity_id: none, first_application_id: none, second_application_id: none, kept_application_id: none, reason: none,
    decided_by: none, decided_at: none, created_at: none,
  },
  // Public by design: log numbers, ranks and reason codes, no names (the results page publishes it).
  lottery_invitation_log: {
    opportunity_id: none, seq: none, application_id: none, log_number: none, rank: none, event: none, reason: none, unit_sizes: none, at: none,
    dedupe_key: none, hash: none,
  },
  lottery_releases: { key: none, opportunity_id: none, application_id: none, reason: none, created_at: none },
  // A waitlist's check-ins and the changes of each household's place (the link token only as its SHA-256).
  waitlist_check_ins: { id: none, application_id: none, opportunity_id: none, cycle: none, asked_at: none, reminded_at: none, answered_at: none, answered_by: none },
  waitlist_links: { token_hash: none, application_id: none, issued_at: none, expires_at: none },
  waitlist_changes: { id: none, application_id: none, at: none, state: none, reason: none, note: none, by_user_id: none },
  mailed_letters: {
    id: none, organization_id: none, household_id: none, application_id: none, letter: none, language: none, blob_key: none, dedupe_key: none,
    queued_at: none, printed_at: none, printed_by: none, mailed_at: none, mailed_by: none, purged_at: none,
  },
  manager_task_versions: { case_kind: none, case_id: none, version: none },
  manager_tasks: {
    id: none, organization_id: none, case_kind: none, case_id: none, household_id: none, action: none, step: none, context_id: none,
    context_name: none, due_at: none, overdue: none, case_version: none, created_at: none,
  },
  notification_clicks: { id: none, notification_id: none, destination_path: none, clicked_at: none },
  notification_outbox: {
    id: none, user_id: none, channel: none, to_address: plain(CONTACT_REASON),
    template: none, language: none,
    params: plain('what a queued notice says (a first name, a log number, a date) until it is sent'),
    dedupe_key: none, status: none, attempts: none, last_error: none, created_at: none, sent_at: none, next_attempt_at: none,
    notice_key: none, case_key: none, provider_message_id: none, delivery_status: none, undelivered_reason: none,
  },
  one_time_codes: {
    id: none, user_id: none, purpose: none, code_hash: hashed,
    subject: plain('the email or phone number a code was sent to, so the code only verifies that address'),
    attempts: none, expires_at: none, used_at: none, created_at: none,
  },
  operator_audit: { id: none, actor_user_id: none, workflow_id: none, action: none, reason: none, detail: none, created_at: none },
  opportunities: {
    id: none, organization_id: none, name: none, kind: none, address: none, description: none, amenities: none, requirements: none,
    income_ranges: none, lottery_end_date: none, published: none, created_at: none, building: none, offer_expiry_days: none,
    appeal_window_days: none, appeal_decision_business_days: none, additional_documents_days: none, paper_application_key: none,
    published_at: none, created_by: none, selection: none, lottery_set_asides: none, lottery_community_board: none, waitlist_check_in_months: none, mailing_address: none,
    mail_grace_days: none, area: none,
  },
  opportunity_lotteries: {
    opportunity_id: none, workflow_id: none, organization_id: none, stage: none, paused: none, deadline: none, units: none, set_asides: none,
    community_board: none, seed_encrypted: field, seed_hash: none, seed_revealed: none, public_value: none, algorithm: none, list_hash: none,
    result_hash: none, entries: none, invited: none, skipped: none, drawn_at: none, view: none, state_version: none, state_updated_at: none,
    created_at: none, mail_grace_days: none, frozen_list_hash: none, frozen_entries: none, frozen_at: none, invitation_log_head: none,
    invitation_log_length: none,
  },
  organization_requests: {
    id: none, user_id: none, organization_id: none, status: none,
    note: plain('what a user wrote when asking to join an organisation, read by its administrator'),
    decided_by: none, decided_at: none, created_at: none,
  },
  organizations: {
    id: none, name: none, slug: none, email: none, phone: none, created_at: none, kind: none, access_period_days: none, updated_at: none,
    retention_days: none,
  },
  listing_alerts: {
    id: none, user_id: none,
    contact_sealed: field, contact_hash: hashed,
    channel: none, language: none, frequency: none, status: none,
    // What kind of listing is wanted (tenure, sizes, boroughs, accessibility, groups): filtered on in SQL.
    tenure: none, bedroom_types: none, areas: none, accessibility: none, set_aside_groups: none,
    // Household size and yearly income: matched in code only.
    personal_sealed: sealedJsonText,
    confirmation_token_hash: none, unsubscribe_token_hash: none, unsubscribe_token_sealed: field,
    created_at: none, confirmed_at: none, updated_at: none,
  },
  listing_alert_notices: { opportunity_id: none, alert_id: none, created_at: none, digest_week: none, digested_at: none },
  listing_alert_confirmation_sends: { id: none, contact_hash: hashed, sent_at: none },
  my_data_export_leases: { household_id: none, lease_id: none, expires_at: none },
  blob_deletions: { blob_key: none, queued_at: none },
  privacy_audit: { id: none, action: none, household_id: none, application_id: none, actor_user_id: none, detail: none, created_at: none },
  profile_locks: { household_id: none, reason: none, workflow_id: none, locked_at: none },
  public_listing_generation: { id: none, generation: none },
  sms_opt_outs: {
    phone_key: plain('the digits of a number that texted STOP: an inbound STOP or START names only the number, and every account using it must stop getting texts'),
    opted_out: none, changed_at: none,
  },
  rate_limit_hits: { key: plain('rate limits count requests per IP address or user id, for their window only'), count: none, expires_at: none },
  recertification_cases: {
    ...caseColumns, tenant_user_id: none, kind: none, deadline: none, stage: none, status: none, profile_locked: none, tenant_signed: none,
    started_at: none,
    view: plain('the recertification timeline (steps, tasks, dates, member names for signing, the income band) served once the history is gone; incomes themselves are read sealed'),
  },
  refresh_tokens: { id: none, family_id: none, user_id: none, real_user_id: none, token_hash: hashed, expires_at: none, used_at: none, revoked_at: none, created_at: none },
  relocation_cases: {
    ...caseColumns, tenant_user_id: none, status: none, under_relocation: none, ends_at: none, started_at: none,
    view: plain('the relocation timeline (steps, tasks, dates, the unit offered) served once the history is gone'),
  },
  rental_assistance: { id: none, household_id: none, details: plain(ANSWER_REASON), updated_at: none },
  signed_letters: { signed_key: none, case_kind: none, case_id: none, letter: none, letter_key: none, sha256: none, signer_id: none, signed_at: none, recorded_at: none },
  support_ticket_attachments: {
    id: none, ticket_id: none, message_seq: none, uploaded_by: none,
    file_name: plain('the name the requester gave the file, shown in the ticket (the file itself is sealed)'),
    content_type: none, size_bytes: none, blob_key: none, uploaded_at: none,
  },
  support_tickets: {
    id: none, workflow_id: none, requester_user_id: none, requester_kind: none, household_id: none, organization_id: none, category: none,
    subject_encrypted: field, status: none, case_kind: none, case_id: none, assignee_user_id: none, escalated: none, first_answer_due_at: none,
    last_activity_at: none, created_at: none, state_version: none, view: sealedJson, projected_at: none,
  },
  tenancies: {
    household_id: none, organization_id: none, building_name: none,
    address: plain('the home address of a tenant, which is the building the office manages'),
    unit_number: plain('the unit the office manages; shown on every tenant case'),
    bedrooms: none, lease_start: plain('the lease anniversary decides when each annual recertification opens'),
    declared_annual_income: emptied, created_at: none, declared_annual_income_encrypted: field,
    monthly_rent: plain('the rent the office charges, printed on the income certification'),
    building_latitude: none, building_longitude: none,
  },
  tenant_roster: {
    id: none, organization_id: none, building_id: none, building_name: none, building_address: none, unit_number: none,
    first_name: plain(`the office's own roster; ${NAME_REASON}`), last_name: plain(`the office's own roster; ${NAME_REASON}`),
    date_of_birth: plain('a new sign-up is matched to the roster by name and date of birth, in SQL'),
    email: plain(CONTACT_REASON), phone: plain(CONTACT_REASON), linked_user_id: none, created_at: none,
  },
  translation_memory: { text_hash: hashed, source: none, target: none, original_encrypted: field, translated_encrypted: field, detected: none, created_at: none, used_at: none },
  units: { id: none, opportunity_id: none, unit_number: none, bedroom_type: none, address: none, accessibility: none, monthly_rent: none, ami_percent: none },
  user_admin_audit: { id: none, actor_user_id: none, user_id: none, action: none, detail: none, created_at: none },
  user_signatures: { user_id: none, kind: none, blob_key: none, updated_at: none },
  users: {
    id: none,
    username: plain('what a person signs in with'),
    email: plain(CONTACT_REASON), phone_number: plain(CONTACT_REASON),
    first_name: plain(NAME_REASON), last_name: plain(NAME_REASON),
    role: none, password_hash: hashed, organization_id: none, email_verified: none, mfa_enabled: none, preferred_language: none, font_size: none,
    status: none, created_at: none, notify_email: none, notify_sms: none, phone_verified: none, applicant_match_required: none,
  },
};

/** Temporal search attributes: none is personal (domain/case-search.ts says why). */
export const SEARCH_ATTRIBUTE_CLASSIFICATION: Record<CaseSearchAttributeName, DataClass> = {
  CaseKind: none,
  CaseLogNumber: none,
  CaseOpportunityId: none,
  CaseOrganizationId: none,
  CaseStatus: none,
  CaseStep: none,
  CaseOverdue: none,
  CaseChangedAt: none,
};

/** Temporal memo fields: no workflow is started with a memo, so there are none to classify. */
export const MEMO_CLASSIFICATION: Record<string, DataClass> = {};

/** Names of the search attributes registered on the namespace, for the classification test. */
export const registeredSearchAttributes = () => Object.keys(CASE_SEARCH_ATTRIBUTES) as CaseSearchAttributeName[];
