import { useEffect, useState } from 'react';
import { useIdleTimer } from 'react-idle-timer';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../ui/dialog';

/** Spec section 9: idle after 30 minutes (500 ms debounce), then a 5-minute logout countdown. */
export const IDLE_TIMEOUT_MS = 30 * 60_000;
export const LOGOUT_COUNTDOWN_MS = 5 * 60_000;

/**
 * Spec section 4: after 30 minutes without activity 'Are You Still There?' shows a 5-minute
 * countdown. 'Stay Logged In' resets it; 'Logout Now' or reaching zero logs out.
 */
export function IdleModal({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation('auth');
  const [open, setOpen] = useState(false);
  const [remaining, setRemaining] = useState(LOGOUT_COUNTDOWN_MS);
  const timer = useIdleTimer({
    timeout: IDLE_TIMEOUT_MS + LOGOUT_COUNTDOWN_MS,
    promptBeforeIdle: LOGOUT_COUNTDOWN_MS,
    debounce: 500,
    onPrompt: () => setOpen(true),
    onIdle: () => {
      setOpen(false);
      onLogout();
    },
    crossTab: true,
  });

  useEffect(() => {
    if (!open) return;
    const tick = () => setRemaining(timer.getRemainingTime());
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [open, timer]);

  const seconds = Math.max(0, Math.ceil(remaining / 1000));
  const countdown = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <Dialog open={open} title={t('idle.title')} onClose={() => { setOpen(false); timer.activate(); }}>
      <p role="timer" aria-live="off">{t('idle.body', { countdown })}</p>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={() => { setOpen(false); timer.activate(); }}>
          {t('idle.stay')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => { setOpen(false); onLogout(); }}>
          {t('idle.logout')}
        </button>
      </div>
    </Dialog>
  );
}
