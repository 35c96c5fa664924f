import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';

/** The shipped faces, so a typed name in any of the four languages draws the same everywhere. */
const TYPED_FONT = 'italic 44px "Noto Sans Variable", "Noto Sans Bengali Variable", "Noto Sans SC Variable", sans-serif';

/**
 * A drawing surface for one signature (finger, pen or mouse), with a typed name as the keyboard
 * alternative (issue 16): the name is drawn into the same canvas, so the letter gets an image either
 * way. Reports a PNG data URL, or null while it is empty or after "clear". Used wherever a person signs
 * a letter.
 */
export function SignatureCanvas({
  label,
  clearLabel,
  onChange,
  testId,
}: {
  label: string;
  clearLabel: string;
  onChange: (pngDataUrl: string | null) => void;
  testId?: string;
}) {
  const { t } = useTranslation('common');
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [typed, setTyped] = useState('');
  const typedId = useId();

  useEffect(() => {
    if (!canvas.current) return;
    const p = new SignaturePad(canvas.current, { backgroundColor: 'rgb(255,255,255)' });
    p.addEventListener('beginStroke', () => setTyped(''));
    p.addEventListener('endStroke', () => onChange(p.isEmpty() ? null : p.toDataURL('image/png')));
    pad.current = p;
    return () => p.off();
  }, [onChange]);

  const type = (text: string) => {
    setTyped(text);
    const el = canvas.current;
    pad.current?.clear();
    const name = text.trim();
    if (!el || !name) return onChange(null);
    const ctx = el.getContext('2d')!;
    ctx.fillStyle = '#111';
    ctx.font = TYPED_FONT;
    ctx.textBaseline = 'middle';
    ctx.fillText(name, 20, el.height / 2, el.width - 40);
    onChange(el.toDataURL('image/png'));
  };

  return (
    <div className="field">
      <span>{label}</span>
      <canvas
        ref={canvas}
        width={480}
        height={160}
        className="signature-canvas"
        aria-label={label}
        data-testid={testId}
        style={{ border: '1px solid #888', touchAction: 'none', maxWidth: '100%' }}
      />
      <label htmlFor={typedId}>{t('signature.typeInstead')}</label>
      <input id={typedId} type="text" autoComplete="name" maxLength={80} value={typed} onChange={(e) => type(e.target.value)} />
      <button
        type="button"
        className="button button-secondary"
        onClick={() => {
          pad.current?.clear();
          setTyped('');
          onChange(null);
        }}
      >
        {clearLabel}
      </button>
    </div>
  );
}
