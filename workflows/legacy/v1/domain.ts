/**
 * Frozen: the domain values and types the version-1 workflows were written against, as they were
 * when the case kit replaced them. Version-1 runs (started before `patched('case-kit')`) keep
 * executing, and their recorded histories keep replaying, against exactly these definitions.
 * Never edit; delete with the rest of `workflows/legacy/v1` once no version-1 run is open.
 */
export * from './domain-lease-up';
export * from './domain-recertification';
export * from './domain-relocation';
export { MESSAGES, type MessageCode } from '../../../domain/messages';
