import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec sections 2 and 9: toasts appear top right and close after 3000 ms. */
export const TOAST_AUTO_CLOSE_MS = 3000;

type ToastKind = 'error' | 'success';
interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}
interface ToastApi {
  showError(message: string): void;
  showSuccess(message: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const show = useCallback(
    (kind: ToastKind, message: string) => {
      const id = nextId.current++;
      setToasts((all) => [...all, { id, kind, message }]);
      window.setTimeout(() => dismiss(id), TOAST_AUTO_CLOSE_MS);
    },
    [dismiss],
  );
  const api = useMemo<ToastApi>(
    () => ({ showError: (m) => show('error', m), showSuccess: (m) => show('success', m) }),
    [show],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section className="toasts" aria-label={t('toast.region')}>
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.kind}`}>
            <span role={toast.kind === 'error' ? 'alert' : 'status'}>{toast.message}</span>
            <button type="button" className="toast-close" onClick={() => dismiss(toast.id)} aria-label={t('toast.dismiss')}>
              ×
            </button>
          </div>
        ))}
      </section>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a ToastProvider');
  return api;
}
