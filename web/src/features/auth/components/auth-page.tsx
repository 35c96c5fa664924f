import type { ReactNode } from 'react';
import { usePageTitle } from '../../../components/ui/use-page-title';

/** The frame of every signed-out page: one heading, an optional intro, the form. */
export function AuthPage({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <div className="page page-narrow">
      <h1>{title}</h1>
      {intro ? <p>{intro}</p> : null}
      {children}
    </div>
  );
}
