import { z } from 'zod';
import { DEFAULT_ACCESS_PERIOD_DAYS, MAX_ACCESS_PERIOD_DAYS } from './access-grant';
import { Phone } from './identity';
import { MESSAGES } from './messages';

/** Organisations: property managers and ambassador organisations. */
export const ORGANIZATION_KINDS = ['property_manager', 'ambassador_organization'] as const;
export const OrganizationKind = z.enum(ORGANIZATION_KINDS);
export type OrganizationKind = z.infer<typeof OrganizationKind>;

/** The short name in `/{organization}/register`. */
export const OrganizationSlug = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, MESSAGES.invalidSlug)
  .max(60, MESSAGES.invalidSlug)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, MESSAGES.invalidSlug);


/** How long a closed application's personal data is kept (the retention sweep): 7 years unless the organisation says otherwise. */
export const DEFAULT_RETENTION_DAYS = 2555;
export const MIN_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 36_500;

export const OrganizationBody = z.object({
  name: z.string().trim().min(1, 'Required').max(120),
  slug: OrganizationSlug,
  kind: OrganizationKind,
  email: z.union([z.literal(''), z.string().trim().email('Required').max(254)]).optional().transform((v) => (v ? v.toLowerCase() : null)),
  phone: z.union([z.literal(''), Phone]).optional().transform((v) => (v ? v : null)),
  /** How long a household's grant of access to this organisation's ambassadors lasts. */
  accessPeriodDays: z.number({ error: MESSAGES.invalidAccessPeriod }).int(MESSAGES.invalidAccessPeriod).min(1, MESSAGES.invalidAccessPeriod).max(MAX_ACCESS_PERIOD_DAYS, MESSAGES.invalidAccessPeriod).default(DEFAULT_ACCESS_PERIOD_DAYS),
  /** Days a closed application's personal data and documents are kept before the retention sweep removes them. */
  retentionDays: z.number({ error: MESSAGES.invalidRetentionPeriod }).int(MESSAGES.invalidRetentionPeriod).min(MIN_RETENTION_DAYS, MESSAGES.invalidRetentionPeriod).max(MAX_RETENTION_DAYS, MESSAGES.invalidRetentionPeriod).default(DEFAULT_RETENTION_DAYS),
});
export type OrganizationBody = z.input<typeof OrganizationBody>;

export interface Organization {
  organizationId: string;
  name: string;
  slug: string;
  kind: OrganizationKind;
  email: string;
  phone: string;
  accessPeriodDays: number;
  retentionDays: number;
  createdAt: string;
}

/** An organisation as its ambassador sees it, with how many users it has. */
export interface AmbassadorOrganization extends Organization {
  userCount: number;
}

/** Managers and ambassadors of an organisation (the admin's Organizations screen). */
export interface OrganizationMember {
  userId: string;
  name: string;
  username: string;
  email: string;
  role: 'Manager' | 'HousingAmbassador';
}

export const ORGANIZATION_REQUEST_STATUSES = ['pending', 'approved', 'declined'] as const;
export type OrganizationRequestStatus = (typeof ORGANIZATION_REQUEST_STATUSES)[number];

/** A manager or ambassador with no organisation applies to join one (spec section 2, no linked organisation). */
export const OrganizationApplyBody = z.object({
  organizationId: z.string().uuid('Required'),
  note: z.string().trim().max(500).default(''),
});

export interface OrganizationRequest {
  requestId: string;
  userId: string;
  name: string;
  email: string;
  role: string;
  organizationId: string;
  organizationName: string;
  status: OrganizationRequestStatus;
  note: string;
  createdAt: string;
}

/** Organisations one may apply to (name only: nothing else of an organisation is shown before joining). */
export interface OrganizationDirectoryEntry {
  organizationId: string;
  name: string;
  kind: OrganizationKind;
}
