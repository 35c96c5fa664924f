import { useEffect, useRef } from 'react';
import SignaturePad from 'signature_pad';

/**
 * A drawing surface for one signature (finger, pen or mouse). Reports a PNG data URL, or null while
 * it is empty or after "clear". Used wherever a person signs a letter.
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
      <button
        type="button"
        className="button button-secondary"
        onClick={() => {
          pad.current?.clear();
          onChange(null);
        }}
      >
        {clearLabel}
      </button>
    </div>
  );
}
