import { paths } from '../../config/paths';
import { ADMIN_ROLES, MANAGER_ROLES, RESIDENT_ROLES, SUPPORT_STAFF_ROLES, SUPPORT_TICKET_ROLES } from '../../config/roles';
import type { Role } from '../../lib/domain-core';

type MenuKey = 'users' | 'organizations' | 'ambassadorUsers' | 'ambassadorOrganizations' | 'profile' | 'myDocument' | 'dashboard' | 'myDashboard' | 'myApplications' | 'myFavorites' | 'manageOpportunities' | 'opportunities' | 'managerTasks' | 'managerApplications' | 'recertification' | 'training' | 'relocation' | 'managerRelocations' | 'managerRecertifications' | 'supportTicket' | 'supportQueue' | 'help' | 'faqAdmin' | 'operator';

export interface NavItem {
  key: MenuKey;
  to: string;
}

/**
 * The navigation menu of spec sections 2 and 6, limited to pages that exist so far. Items are
 * added here as their pages are built (profile, recertification, documents, favourites...).
 */
export function navItemsFor(role: Role): NavItem[] {
  // Ambassadors have their own dashboard (spec sections 2 and 6: "My Dashboard").
  const items: NavItem[] =
    role === 'HousingAmbassador' ? [{ key: 'myDashboard', to: paths.ambassador.dashboard.getHref() }] : [{ key: 'dashboard', to: paths.app.dashboard.getHref() }];
  if (role === 'HousingAmbassador') {
    items.push({ key: 'ambassadorUsers', to: paths.ambassador.users.getHref() }, { key: 'ambassadorOrganizations', to: paths.ambassador.organizations.getHref() });
  }
  // Spec sections 2 and 6: Users and Organizations for admins.
  if (ADMIN_ROLES.includes(role)) items.push({ key: 'users', to: paths.admin.users.getHref() }, { key: 'organizations', to: paths.admin.organizations.getHref() });
  // Admins manage the help page's questions and answers.
  if (ADMIN_ROLES.includes(role)) items.push({ key: 'faqAdmin', to: paths.admin.faq.getHref() });
  // The operator console.
  if (ADMIN_ROLES.includes(role)) items.push({ key: 'operator', to: paths.operator.console.getHref() });
  if (RESIDENT_ROLES.includes(role)) {
    items.push(
      { key: 'myApplications', to: paths.app.myApplications.getHref() },
      { key: 'opportunities', to: paths.app.opportunities.getHref() },
      { key: 'myFavorites', to: paths.app.myFavorites.getHref() },
      { key: 'profile', to: paths.app.profile.getHref() },
      { key: 'recertification', to: paths.app.recertification.getHref() },
      { key: 'training', to: paths.app.training.getHref() },
      { key: 'myDocument', to: paths.app.myDocument.getHref() },
      { key: 'relocation', to: paths.app.relocation.getHref() },
    );
  }
  if (MANAGER_ROLES.includes(role)) items.push({ key: 'managerTasks', to: paths.manager.tasks.getHref() });
  if (MANAGER_ROLES.includes(role)) items.push({ key: 'managerApplications', to: paths.manager.applications.getHref() });
  if (MANAGER_ROLES.includes(role)) items.push({ key: 'managerRelocations', to: paths.manager.relocations.getHref() });
  if (MANAGER_ROLES.includes(role)) items.push({ key: 'managerRecertifications', to: paths.manager.recertifications.getHref() });
  if (MANAGER_ROLES.includes(role)) items.push({ key: 'manageOpportunities', to: paths.manager.opportunities.getHref() });
  // Spec section 2 menu: Support Ticket (residents and ambassadors); staff answer from their queue.
  if (SUPPORT_TICKET_ROLES.includes(role)) items.push({ key: 'supportTicket', to: paths.app.supportTickets.getHref() });
  if (SUPPORT_STAFF_ROLES.includes(role)) items.push({ key: 'supportQueue', to: paths.manager.supportTickets.getHref() });
  // The FAQ, for everyone signed in.
  items.push({ key: 'help', to: paths.app.help.getHref() });
  return items;
}
