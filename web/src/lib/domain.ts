// The one door from web code to the shared domain module (types, zod schemas, constants).
// Relative rather than a path alias because the root tsconfig has no `paths`.
export * from '../../../domain/index';
export type { WaitlistRow, WaitlistStanding } from '../../../domain/waitlist-check-ins';
