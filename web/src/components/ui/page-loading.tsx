import { Suspense, type ReactNode } from 'react';

/**
 * While a page's code or texts load: an empty, labelled region (no text, since the texts may be what
 * is loading), announced politely to screen readers by aria-busy.
 */
export function PageLoading() {
  return <div className="page page-loading" aria-busy="true" />;
}

export function PageSuspense({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}
