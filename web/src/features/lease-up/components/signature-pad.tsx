import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { useTranslation } from 'react-i18next';

/** Draw a signature with a finger, pen or mouse; reports a PNG data URL, or null while empty. */
export function SignaturePadField({ onChange }: { onChange: (png: string | null) => void }) {
  const { t } = useTranslation('leaseupApplications');
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const p = new SignaturePad(canvas.current, { backgroundColor: 'rgb(255,255,255)' });
    p.addEventListener('endStroke', () => onChange(p.isEmpty() ? null : p.toDataURL('image/png')));
    pad.current = p;
    return () => p.off();
  }, [onChange]);

  return (
    <div className="field">
      <span>{t('sign.draw')}</span>
      <canvas
        ref={canvas}
        width={440}
        height={150}
        aria-label={t('sign.draw')}
        data-testid="lease-up-signature"
        style={{ border: '1px solid #888', touchAction: 'none', maxWidth: '100%' }}
      />
      <button
        type="button"
        className="button button-secondary"
        onClick={() => {
          pad.current?.clear();
          onChange(null);
        }}
      >
        {t('sign.clear')}
      </button>
    </div>
  );
}
