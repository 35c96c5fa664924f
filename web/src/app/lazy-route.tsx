import { lazy, type ComponentType } from 'react';

/** A page component loaded on first use from its own chunk (rendered inside a Suspense boundary). */
export function lazyRoute<M, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(() => load().then((module) => ({ default: module[name] as M[K] & ComponentType<any> })));
}
