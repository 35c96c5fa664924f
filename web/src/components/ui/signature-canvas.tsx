import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import SignaturePad from 'signature_pad';
import { fitsInBox, strokeBounds } from './signature-ink';

/** The shipped faces, so a typed name in any of the four languages draws the same everywhere. */
const TYPED_FACES = '"Noto Sans Variable", "Noto Sans Bengali Variable", "Noto Sans SC Variable", sans-serif';
/** The typed signature's image, in CSS pixels (drawn at the screen's pixel ratio). */
const TYPED_SIZE = { width: 600, height: 160 };

/** How the person signed: drawn with a pen, finger or mouse, or their typed name (keyboard users). */
export interface SignatureMeta {
  typed: boolean;
}

/** The typed name as an image: italic, shrunk until the whole name fits the box. */
export function renderTypedSignature(name: string, ratio = window.devicePixelRatio || 1): string {
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(TYPED_SIZE.width * ratio);
  canvas.height = Math.round(TYPED_SIZE.height * ratio);
  const ctx = canvas.getContext('2d')!;
  ctx.scale(ratio, ratio);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, TYPED_SIZE.width, TYPED_SIZE.height);
  ctx.fillStyle = '#111';
  ctx.textBaseline = 'middle';
  let size = 56;
  do {
    ctx.font = `italic ${size}px ${TYPED_FACES}`;
    size -= 2;
  } while (size > 12 && ctx.measureText(name).width > TYPED_SIZE.width - 48);
  ctx.fillText(name, 24, TYPED_SIZE.height / 2);
  return canvas.toDataURL('image/png');
}

/**
 * The one signature field of the portal: a drawing surface (finger, pen or mouse) whose
 * backing store is its CSS size times the screen's pixel ratio, kept so by a resize observer and a
 * pixel-ratio watch (browser zoom changes both), so the ink lands under the pen at any zoom; a typed
 * name as the keyboard alternative; a preview of the exact image that will be signed; and
 * a check that the drawing lies wholly inside the box (a stroke that left it would be cut off).
 * Reports a PNG data URL, or null while empty, after "clear" or when the drawing does not fit.
 */
export function SignatureCanvas({
  label,
  clearLabel,
  onChange,
  testId,
}: {
  label: string;
  clearLabel: string;
  onChange: (pngDataUrl: string | null, meta: SignatureMeta) => void;
  testId?: string;
}) {
  const { t } = useTranslation('common');
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [typed, setTyped] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [clipped, setClipped] = useState(false);
  const typedId = useId();
  const hintId = useId();
  const report = useRef(onChange);
  report.current = onChange;

  /** Reads the drawing: the image when it fits the box, nothing when it is empty or cut off. */
  const publish = useCallback(() => {
    const p = pad.current;
    const el = canvas.current;
    if (!p || !el) return;
    const bounds = strokeBounds(p.toData());
    if (p.isEmpty() || !bounds) {
      setClipped(false);
      setPreview(null);
      return report.current(null, { typed: false });
    }
    const rect = el.getBoundingClientRect();
    const fits = fitsInBox(bounds, rect.width, rect.height);
    setClipped(!fits);
    const png = fits ? p.toDataURL('image/png') : null;
    setPreview(png);
    report.current(png, { typed: false });
  }, []);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const p = new SignaturePad(el, { backgroundColor: 'rgb(255,255,255)', penColor: '#111' });
    pad.current = p;
    p.addEventListener('beginStroke', () => setTyped(''));
    p.addEventListener('endStroke', publish);

    // Backing store = CSS size × pixel ratio; the drawing so far is redrawn in the new store.
    let size = '';
    const fit = () => {
      const ratio = window.devicePixelRatio || 1;
      const rect = el.getBoundingClientRect();
      if (!rect.width || !rect.height) return;
      const next = `${rect.width}x${rect.height}@${ratio}`;
      if (next === size) return;
      size = next;
      const data = p.toData();
      el.width = Math.round(rect.width * ratio);
      el.height = Math.round(rect.height * ratio);
      el.getContext('2d')!.setTransform(ratio, 0, 0, ratio, 0, 0);
      p.clear();
      if (data.length) {
        p.fromData(data);
        publish();
      }
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    // Zoom and moving to another screen change the pixel ratio, sometimes without a resize.
    let ratioQuery: MediaQueryList | null = null;
    const watchRatio = () => {
      ratioQuery?.removeEventListener('change', onRatio);
      ratioQuery = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
      ratioQuery.addEventListener('change', onRatio);
    };
    const onRatio = () => {
      fit();
      watchRatio();
    };
    watchRatio();
    return () => {
      observer.disconnect();
      ratioQuery?.removeEventListener('change', onRatio);
      p.off();
    };
  }, [publish]);

  const type = (text: string) => {
    setTyped(text);
    pad.current?.clear();
    setClipped(false);
    const name = text.trim();
    const png = name ? renderTypedSignature(name) : null;
    setPreview(png);
    report.current(png, { typed: true });
  };

  const clear = () => {
    pad.current?.clear();
    setTyped('');
    setClipped(false);
    setPreview(null);
    report.current(null, { typed: false });
  };

  return (
    <div className="field signature-field">
      <span>{label}</span>
      <div className="signature-box">
        <canvas ref={canvas} className="signature-canvas" aria-label={label} aria-describedby={hintId} data-testid={testId} />
      </div>
      <p id={hintId} className={clipped ? 'field-error' : 'field-hint'} role={clipped ? 'alert' : undefined}>
        {clipped ? t('signature.clipped') : t('signature.hint')}
      </p>
      <label htmlFor={typedId}>{t('signature.typeInstead')}</label>
      <input id={typedId} type="text" autoComplete="name" maxLength={80} value={typed} onChange={(e) => type(e.target.value)} />
      <div>
        <button type="button" className="button button-secondary" onClick={clear}>
          {clearLabel}
        </button>
      </div>
      {preview ? (
        <figure className="signature-preview" data-testid={testId ? `${testId}-preview` : undefined}>
          <figcaption>{t('signature.preview')}</figcaption>
          <img src={preview} alt={t('signature.previewAlt')} />
        </figure>
      ) : null}
    </div>
  );
}
