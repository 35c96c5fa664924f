import type { Role } from '../lib/domain-core';

/**
 * Who may open which signed-in pages (spec section 6). Residents are User and Tenant, as the API's
 * guards have it; managers work their inbox and the applications of their organisation.
 */
export const RESIDENT_ROLES: readonly Role[] = ['User', 'Tenant'];
export const MANAGER_ROLES: readonly Role[] = ['Manager'];
export const APPLICATION_VIEWER_ROLES: readonly Role[] = [...RESIDENT_ROLES, ...MANAGER_ROLES];
/** Sign-in sends everyone but ambassadors to /dashboard (spec section 4), so they all may open it. */
export const DASHBOARD_ROLES: readonly Role[] = ['User', 'Tenant', 'Admin', 'Manager'];
/** Ambassador pages allow only HousingAmbassador (spec section 6). */
export const AMBASSADOR_ROLES: readonly Role[] = ['HousingAmbassador'];
/** Everyone signed in keeps their own language, font size, notifications and signature. */
export const SETTINGS_ROLES: readonly Role[] = ['User', 'Tenant', 'Admin', 'Manager', 'HousingAmbassador'];
/** The admin's Users and Organizations screens (spec sections 2 and 6). */
export const ADMIN_ROLES: readonly Role[] = ['Admin'];
/** Staff who work within an organisation: they see the no-linked-organisation page when they have none. */
/** Support tickets allow User and HousingAmbassador (spec section 6); tenants are residents too. */
export const SUPPORT_TICKET_ROLES: readonly Role[] = ['User', 'Tenant', 'HousingAmbassador'];
/** Who answers tickets: the organisation's managers, and admins. */
export const SUPPORT_STAFF_ROLES: readonly Role[] = ['Manager', 'Admin'];
export const ORGANIZATION_STAFF_ROLES: readonly Role[] = ['Manager', 'HousingAmbassador'];
