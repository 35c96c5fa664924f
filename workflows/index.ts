// What the worker bundles: every workflow type of the portal.
export { leaseUpApplication } from './lease-up';
export { recertification } from './recertification';
export { relocation } from './relocation';
