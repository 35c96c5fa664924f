// What the worker bundles: every workflow type of the portal.
export { leaseUpApplication } from './lease-up';
