export * from './roles';
export * from './envelope';
export * from './messages';
export * from './case';
export * from './calendar';
export * from './time';
export * from './lease-up.inputs';
export * from './lease-up';
export * from './lease-up.state';
export * from './lease-up.table';
export * from './lease-up.view';
export * from './opportunity';
export * from './account';
export * from './identity';
export * from './tasks';
export * from './recertification';
export * from './recertification.table';
export * from './relocation';
export * from './relocation.table';
export * from './lottery';
export * from './lottery.table';
export * from './lottery-inbox';
export * from './dashboard';
export * from './fields';
export * from './household';
export * from './income';
export * from './assets';
export * from './documents';
export * from './paging';
export * from './application-list';
export * from './access-grant';
export * from './access-grant.table';
export * from './organization';
export * from './ambassador';
export * from './admin';
export * from './lottery-results';
export * from './paper-application';
export * from './pay-stubs';
export * from './redirect';
export * from './form-messages';
export * from './validation-catalogue';
export * from './support-ticket';
export * from './support-ticket.table';
export * from './chat';
export * from './whose-move';
export * from './case-file';
export * from './faq';
export * from './bulk';
export * from './bulk.table';
// The dashboard's outside world
export * from './feeds';
// Figures read from statements and pay stubs
export * from './extraction';

// Case search attributes
export * from './case-search';
export * from './operator';
// Text messages: segments, keywords, delivery states
export * from './sms';
// Text translation and the intake assistant: domain/translator.ts and domain/intake.ts are
// imported directly, not through this index, so their schemas stay out of the web's shared chunk.
export * from './ids';
export * from './waitlist';
export * from './invitation-log';
