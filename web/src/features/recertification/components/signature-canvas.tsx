import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { useTranslation } from 'react-i18next';

/** A drawing surface for one signature; reports a PNG (base64, no prefix) or null when empty. */
export function SignatureCanvas({ label, onChange }: { label: string; onChange: (png: string | null) => void }) {
  const { t } = useTranslation('recertification');
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const p = new SignaturePad(canvas.current, { backgroundColor: 'rgb(255,255,255)' });
    p.addEventListener('endStroke', () => onChange(p.isEmpty() ? null : p.toDataURL('image/png').replace(/^data:image\/png;base64,/, '')));
    pad.current = p;
    return () => p.off();
  }, [onChange]);

  return (
    <div className="field">
      <span>{label}</span>
      <canvas ref={canvas} width={480} height={160} className="signature-canvas" aria-label={label} data-testid="signature-canvas" style={{ border: '1px solid #888', touchAction: 'none', maxWidth: '100%' }} />
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
