import { useTranslation } from 'react-i18next';
import { SignatureCanvas } from '../../../components/ui/signature-canvas';

/** The applicant's signature for a TIC or lease letter; reports a PNG data URL, or null while empty. */
export function SignaturePadField({ onChange }: { onChange: (png: string | null) => void }) {
  const { t } = useTranslation('leaseupApplications');
  return <SignatureCanvas label={t('sign.draw')} clearLabel={t('sign.clear')} onChange={onChange} testId="lease-up-signature" />;
}
