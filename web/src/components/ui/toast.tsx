import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec sections 2 and 9: toasts appear top right and close after 3000 ms. */
export const TOAST_AUTO_CLOSE_MS = 3000;

interface ToastApi {
  showError(message: string): void;
  showSuccess(message: string): void;
  showInfo(message: string): void;
}

type Sonner = typeof import('sonner');
type Show = (sonner: Sonner) => void;

// sonner is loaded with the first toast, not with every page (issue 11: initial JS of public pages).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));
const queued: Show[] = [];
let mountToaster: (() => void) | null = null;
let flush: (() => void) | null = null;

function show(run: Show): void {
  queued.push(run);
  if (flush) flush();
  else mountToaster?.();
}

/** Runs after the toaster (its sibling before it) has mounted and subscribed: then the queue is shown. */
function Flush() {
  useEffect(() => {
    flush = () => void import('sonner').then((sonner) => queued.splice(0).forEach((run) => run(sonner)));
    flush();
    return () => {
      flush = null;
    };
  }, []);
  return null;
}

/** Renders sonner's toaster once for the app (top right, 3 s, a labelled region for screen readers). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    mountToaster = () => setNeeded(true);
    if (queued.length) setNeeded(true);
    return () => {
      mountToaster = null;
    };
  }, []);
  return (
    <>
      {children}
      {needed ? (
        <Suspense fallback={null}>
          <Toaster
            position="top-right"
            duration={TOAST_AUTO_CLOSE_MS}
            closeButton
            richColors
            containerAriaLabel={t('toast.region')}
            // Readable for everyone, and it follows the font-size setting (styles.css --fs-*).
            toastOptions={{ style: { fontSize: 'var(--fs-16)' } }}
          />
          <Flush />
        </Suspense>
      ) : null}
    </>
  );
}

/** The app's toast calls; any component may use them. */
export function useToast(): ToastApi {
  return useMemo<ToastApi>(
    () => ({
      showError: (message) => show(({ toast }) => void toast.error(message)),
      showSuccess: (message) => show(({ toast }) => void toast.success(message)),
      showInfo: (message) => show(({ toast }) => void toast.info(message)),
    }),
    [],
  );
}
