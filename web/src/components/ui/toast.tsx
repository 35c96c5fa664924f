import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster, toast } from 'sonner';

/** Spec sections 2 and 9: toasts appear top right and close after 3000 ms. */
export const TOAST_AUTO_CLOSE_MS = 3000;

interface ToastApi {
  showError(message: string): void;
  showSuccess(message: string): void;
  showInfo(message: string): void;
}

/** Renders sonner's toaster once for the app (top right, 3 s, a labelled region for screen readers). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <>
      {children}
      <Toaster
        position="top-right"
        duration={TOAST_AUTO_CLOSE_MS}
        closeButton
        richColors
        containerAriaLabel={t('toast.region')}
        // Readable for everyone, and it follows the font-size setting (styles.css --fs-*).
        toastOptions={{ style: { fontSize: 'var(--fs-16)' } }}
      />
    </>
  );
}

/** The app's toast calls; any component (or code outside React via `toast`) may use them. */
export function useToast(): ToastApi {
  return useMemo<ToastApi>(
    () => ({
      showError: (message) => void toast.error(message),
      showSuccess: (message) => void toast.success(message),
      showInfo: (message) => void toast.info(message),
    }),
    [],
  );
}
