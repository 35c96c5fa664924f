/**
 * What the worker bundles: every workflow type of the portal, each one's module evaluated only when
 * a workflow of that type runs.
 *
 * The SDK's reused V8 context gives every cached workflow its own module cache (its isolation), so
 * whatever this entry imports is evaluated again, and kept, for each cached workflow. Importing every
 * type here made each cached lease-up case also hold the lottery's, the recertification's, the
 * relocation's... code and zod schemas (issue 11: worker memory per cached workflow). `eager` keeps
 * every module in the one bundle (no chunk to fetch); only its evaluation waits for the first call.
 *
 * A new workflow type is added to MODULES and exported below (tests/workflows/entry.test.ts checks
 * that every workflow function of `workflows/*.ts` is reachable from here).
 */
export const MODULES = {
  leaseUpApplication: () => import(/* webpackMode: "eager" */ './lease-up'),
  recertification: () => import(/* webpackMode: "eager" */ './recertification'),
  recertificationSweep: () => import(/* webpackMode: "eager" */ './recertification-sweep'),
  relocation: () => import(/* webpackMode: "eager" */ './relocation'),
  lottery: () => import(/* webpackMode: "eager" */ './lottery'),
  accessGrant: () => import(/* webpackMode: "eager" */ './access-grant'),
  supportTicket: () => import(/* webpackMode: "eager" */ './support-ticket'),
  bulkBatch: () => import(/* webpackMode: "eager" */ './bulk-batch'),
  documentExtraction: () => import(/* webpackMode: "eager" */ './document-extraction'),
};

type WorkflowType = keyof typeof MODULES;
type WorkflowOf<K extends WorkflowType> = Awaited<ReturnType<(typeof MODULES)[K]>> extends infer M ? (K extends keyof M ? M[K] : never) : never;

/**
 * The workflow function of `type`, loading its module on the first call. Only microtasks pass before
 * the real function runs, so its commands (and any recorded history) are unchanged.
 */
function lazy<K extends WorkflowType>(type: K): WorkflowOf<K> {
  const run = async (...args: unknown[]) => {
    const module = (await MODULES[type]()) as unknown as Record<K, (...a: unknown[]) => Promise<unknown>>;
    return module[type](...args);
  };
  return run as WorkflowOf<K>;
}

export const leaseUpApplication = lazy('leaseUpApplication');
export const recertification = lazy('recertification');
export const recertificationSweep = lazy('recertificationSweep');
export const relocation = lazy('relocation');
export const lottery = lazy('lottery');
export const accessGrant = lazy('accessGrant');
export const supportTicket = lazy('supportTicket');
export const bulkBatch = lazy('bulkBatch');
export const documentExtraction = lazy('documentExtraction');
