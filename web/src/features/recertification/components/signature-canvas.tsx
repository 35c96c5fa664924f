import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SignatureCanvas as Canvas } from '../../../components/ui/signature-canvas';

/** One signer's signature for the recertification TIC; reports base64 PNG (no prefix) or null. */
export function SignatureCanvas({ label, onChange }: { label: string; onChange: (png: string | null) => void }) {
  const { t } = useTranslation('recertification');
  const report = useCallback((png: string | null) => onChange(png ? png.replace(/^data:image\/png;base64,/, '') : null), [onChange]);
  return <Canvas label={label} clearLabel={t('sign.clear')} onChange={report} testId="signature-canvas" />;
}
