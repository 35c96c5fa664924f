// The part of the shared domain module that the app's first load needs (session, layouts, HTTP
// client, i18n): no zod schemas, so public pages do not download them. Everything else
// comes through ./domain.
export * from '../../../domain/role-names';
export * from '../../../domain/session-data';
export * from '../../../domain/messages';
export * from '../../../domain/envelope';
export * from '../../../domain/redirect';
export * from '../../../domain/opportunity-filter';
export * from '../../../domain/videos';
