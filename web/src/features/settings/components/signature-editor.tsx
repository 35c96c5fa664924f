import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SignatureCanvas, type SignatureMeta } from '../../../components/ui/signature-canvas';

export interface SignatureValue {
  png: string;
  typed: boolean;
}

/** The signature kept on the account: the portal's one signature field (drawn or typed). */
export function SignatureEditor({ onChange }: { onChange: (value: SignatureValue | null) => void }) {
  const { t } = useTranslation('profileSetting');
  const report = useCallback((png: string | null, meta: SignatureMeta) => onChange(png ? { png, typed: meta.typed } : null), [onChange]);
  return <SignatureCanvas label={t('signature.drawHere')} clearLabel={t('signature.clear')} onChange={report} testId="account-signature" />;
}
