import { accessChangedTemplate } from './access-changed';
import { accessRequestTemplate } from './access-request';
import { accountInviteTemplate } from './account-invite';
import { leaseUpTemplates } from './lease-up-notice';
import { listingAlertTemplates } from './listing-alerts';
import { lotteryDuplicateTemplate } from './lottery-duplicate';
import { otpTemplate } from './otp';
import { recertificationExpiredTemplate, recertificationNoticeTemplate } from './recertification-notice';
import { relocationOverdueTemplate, relocationReminderTemplate } from './relocation-notice';
import { resetPasswordTemplate } from './reset-password';
import { signInFailuresTemplate } from './sign-in-failures';
import { supportTicketTemplate } from './support-ticket';
import type { NotificationTemplate } from './types';
import { usernameReminderTemplate } from './username-reminder';
import { verifyEmailTemplate } from './verify-email';
import { waitlistTemplates } from './waitlist-notice';

export * from './types';
export * from './sms-replies';

/**
 * Every message kind the delivery worker can send, by the `template` name stored in the outbox.
 * To add one: write `templates/<name>.ts` with `defineTemplate(...)` (all four languages) and add one
 * line here. A row naming an unknown template is marked failed, never dropped silently.
 */
const registry = new Map<string, NotificationTemplate<any>>();

export function registerTemplate(template: NotificationTemplate<any>): void {
  registry.set(template.name, template);
}

/** Every registered template (the SMS length test reads them all). */
export function allTemplates(): NotificationTemplate<any>[] {
  return [...registry.values()];
}

export function findTemplate(name: string): NotificationTemplate<any> | undefined {
  return registry.get(name);
}

for (const template of [otpTemplate, verifyEmailTemplate, resetPasswordTemplate, usernameReminderTemplate, signInFailuresTemplate]) registerTemplate(template);
// Recertification and relocation notices.
for (const template of [recertificationNoticeTemplate, recertificationExpiredTemplate, relocationReminderTemplate, relocationOverdueTemplate]) registerTemplate(template);
// Lease-up reminders and notices.
for (const template of leaseUpTemplates) registerTemplate(template);
registerTemplate(lotteryDuplicateTemplate);
// Consented access and accounts made by ambassadors.
for (const template of [accessRequestTemplate, accessChangedTemplate, accountInviteTemplate]) registerTemplate(template);
// Support tickets and messages with the managing office.
registerTemplate(supportTicketTemplate);
// Listing alerts: the visitor's confirmation, one listing's notice, the weekly digest.
for (const template of listingAlertTemplates) registerTemplate(template);
// A waitlist's check-ins: the question, its reminder, inactive, removed.
for (const template of waitlistTemplates) registerTemplate(template);
