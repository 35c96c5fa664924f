import SignaturePad from 'signature_pad';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The typed signature is drawn in a handwriting-like font so it reads as a signature on letters. */
export function renderTypedSignature(text: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = 600;
  canvas.height = 150;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111';
  ctx.font = 'italic 56px "Brush Script MT", "Segoe Script", cursive';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 24, canvas.height / 2, canvas.width - 48);
  return canvas.toDataURL('image/png');
}

export interface SignatureValue {
  png: string;
  typed: boolean;
}

/** Draw with finger, pen or mouse (signature_pad), or type the name. */
export function SignatureEditor({ onChange }: { onChange: (value: SignatureValue | null) => void }) {
  const { t } = useTranslation('profileSetting');
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);

  useEffect(() => {
    if (mode !== 'draw' || !canvasRef.current) return;
    const pad = new SignaturePad(canvasRef.current, { backgroundColor: 'rgb(255,255,255)' });
    padRef.current = pad;
    const emit = () => onChange(pad.isEmpty() ? null : { png: pad.toDataURL('image/png'), typed: false });
    pad.addEventListener('endStroke', emit);
    return () => {
      pad.removeEventListener('endStroke', emit);
      pad.off();
    };
  }, [mode, onChange]);

  return (
    <div className="signature-editor">
      <div role="radiogroup" aria-label={t('signature.mode')} className="segmented" style={{ display: 'flex', gap: '1.5rem', flexWrap: 'wrap', margin: '0.5rem 0' }}>
        {(['draw', 'type'] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="signature-mode" checked={mode === m} onChange={() => { setMode(m); onChange(null); }} />
            {t(`signature.${m}`)}
          </label>
        ))}
      </div>
      {mode === 'draw' ? (
        <>
          <canvas
            ref={canvasRef}
            width={600}
            height={150}
            className="signature-canvas"
            aria-label={t('signature.drawHere')}
            style={{ display: 'block', width: '100%', maxWidth: 600, border: '2px dashed #5a6b7b', borderRadius: 8, touchAction: 'none', background: '#fff' }}
          />
          <button type="button" className="button button-secondary" onClick={() => { padRef.current?.clear(); onChange(null); }}>
            {t('signature.clear')}
          </button>
        </>
      ) : (
        <div className="field">
          <label htmlFor="typed-signature">{t('signature.typeName')}</label>
          <input id="typed-signature" type="text" maxLength={80} onChange={(e) => onChange(e.target.value.trim() ? { png: renderTypedSignature(e.target.value.trim()), typed: true } : null)} />
        </div>
      )}
    </div>
  );
}
