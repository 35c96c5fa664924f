// What the worker bundles: every workflow type of the portal.
export { leaseUpApplication } from './lease-up';
export { recertification } from './recertification';
export { recertificationSweep } from './recertification-sweep';
export { relocation } from './relocation';
export { lottery } from './lottery';
export { accessGrant } from './access-grant';
export { supportTicket } from './support-ticket';
export { bulkBatch } from './bulk-batch';
