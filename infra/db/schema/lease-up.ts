import type { ColumnType } from 'kysely';
import type { LeaseUpView } from '../../../domain';

/** Favourite opportunities of a user (spec section 2, /my-favorites; section 7, /api/FavoriteOpportunity). */
export interface FavoriteOpportunityTable {
  user_id: string;
  opportunity_id: string;
  /** "Add or update": un-favouriting keeps the row with false. */
  is_favorite: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface LeaseUpTables {
  favorite_opportunities: FavoriteOpportunityTable;
  appointment_bookings: AppointmentBookingTable;
}

/** Columns the lease-up migration adds to `opportunities` (joined into OpportunityTable). */
export interface OpportunityLeaseUpColumns {
  building: ColumnType<string, string | undefined, string>;
  offer_expiry_days: ColumnType<number, number | undefined, number>;
  appeal_window_days: ColumnType<number, number | undefined, number>;
  appeal_decision_business_days: ColumnType<number, number | undefined, number>;
  additional_documents_days: ColumnType<number, number | undefined, number>;
  paper_application_key: ColumnType<string | null, string | null | undefined, string | null>;
  published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Columns the lease-up migration adds to `applications`. */
export interface ApplicationLeaseUpColumns {
  held_unit_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last projected view (readable after the workflow's retention); null before 2026-11-23T0100. */
  view: ColumnType<LeaseUpView | null, string | null | undefined, string | null>;
}

/** Appointment times booked per opportunity (one application per slot). */
export interface AppointmentBookingTable {
  opportunity_id: string;
  slot: ColumnType<Date, Date | string, Date | string>;
  application_id: string;
  booked_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
