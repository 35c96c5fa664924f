import type { DashboardFeeds } from './feeds';
import type { RecertificationCase } from './recertification';
import type { RelocationView } from './relocation';

/** One thing the signed-in resident has to do (`/api/Dashboard/getActionItems`). */
export interface ActionItem {
  kind: 'recertification' | 'relocation' | 'lease_up' | 'profile';
  /** The action the workflow offers (e.g. 'ConfirmProfile'); the web app translates it. */
  action: string;
  caseId: string | null;
  /** Web path where the action is taken. */
  path: string;
  dueAt: string | null;
  /** What the case is about, where the kind alone does not say (the opportunity of an application). */
  name?: string;
}

/** `/api/Dashboard/getDashboardData` (spec section 2). */
export interface DashboardData {
  welcome: { firstName: string; lastName: string; role: string };
  /** Keys of the "about the application" and announcement texts (translated by the web app). */
  about: { key: string };
  announcement: { key: string; publishedAt: string } | null;
  howToVideo: { titleKey: string; url: string };
  actionNeeded: ActionItem[];
  recertificationStatus: RecertificationCase | null;
  relocation: Pick<RelocationView, 'relocationId' | 'status' | 'endsAt' | 'underRelocation'> | null;
  profileCompletion: number;
  /** Weather, air quality, transit and news, as the server last fetched them (never waited on). */
  feeds: DashboardFeeds;
}

/** `/api/UserProfile/profile-lock-status` (spec section 3 "Profile lock status"). */
export interface ProfileLockStatus {
  isProfileLocked: boolean;
  isRecertificationExpired: boolean;
  isTenantSigned: boolean;
  organizationEmail: string;
  organizationPhone: string;
  householdSize: number;
}
