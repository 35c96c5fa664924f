import { lazy, Suspense, useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';

/** Text colours of the rich toasts, each at least 4.5:1 on sonner's light backgrounds. */
const RICH_TEXT = { '--success-text': '#0b5d28', '--error-text': '#a4161a', '--info-text': '#0b4a8f', '--warning-text': '#7a4a00' };

/** Where the page's header ends (it wraps on narrow screens), kept current while toasts are in use. */
function useHeaderBottom(active: boolean): number {
  const [bottom, setBottom] = useState(16);
  useEffect(() => {
    const header = active ? document.querySelector('.site-header') : null;
    if (!header) return;
    const measure = () => setBottom(Math.max(16, Math.ceil(header.getBoundingClientRect().height) + 8));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(header);
    return () => observer.disconnect();
  }, [active]);
  return bottom;
}
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

// sonner is loaded with the first toast, not with every page (initial JS of public pages).
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
  const top = useHeaderBottom(needed);
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
            // Below the header, so a toast never covers its buttons.
            offset={{ top, right: 16 }}
            mobileOffset={{ top, right: 16, left: 16 }}
            // Readable for everyone, and it follows the font-size setting (styles.css --fs-*); sonner's
            // rich colours darkened to pass 4.5:1 on their pale backgrounds (its green is 4.25:1).
            toastOptions={{ style: { fontSize: 'var(--fs-16)', ...RICH_TEXT } as CSSProperties }}
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
