import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import type { RecertActionBody, RecertView } from '../../../lib/domain';
import { SignatureCanvas } from './signature-canvas';

/** The TIC to read, and a signature for each adult who has not signed yet (head and adult members). */
export function SignPanel({ view, pending, onSign }: { view: RecertView; pending: boolean; onSign: (body: RecertActionBody) => void }) {
  const { t } = useTranslation('recertification');
  const unsigned = view.signers.filter((s) => !s.signedAt);
  const [signerId, setSignerId] = useState(unsigned[0]?.id ?? '');
  const [png, setPng] = useState<string | null>(null);
  const onChange = useCallback((value: string | null) => setPng(value), []);
  const openTic = async () => {
    const doc = await api.get<{ fileContent: string; contentType: string }>(`/TenantRecertificationStatus/case/${encodeURIComponent(view.caseId)}/tic`);
    const bytes = Uint8Array.from(atob(doc.fileContent), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: doc.contentType }));
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 10_000); // spec section 9: link revoked after 10 s
  };
  return (
    <section className="panel">
      <h2>{t('sign.title')}</h2>
      <p>{t('sign.intro')}</p>
      <button type="button" className="button button-secondary" onClick={() => void openTic()}>
        {t('sign.viewTic')}
      </button>
      <ul>
        {view.signers.map((s) => (
          <li key={s.id}>
            {s.name}: {s.signedAt ? t('sign.signed') : t('sign.notSigned')}
          </li>
        ))}
      </ul>
      {unsigned.length > 1 ? (
        <label className="field">
          <span>{t('sign.who')}</span>
          <select value={signerId} onChange={(e) => setSignerId(e.target.value)}>
            {unsigned.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <SignatureCanvas label={t('sign.drawHere')} onChange={onChange} />
      <button
        type="button"
        className="button button-primary button-large"
        disabled={!png || pending}
        onClick={() => onSign({ signerId: unsigned.some((s) => s.id === signerId) ? signerId : unsigned[0]?.id, signatureBase64: png ?? undefined })}
      >
        {t('sign.submit')}
      </button>
    </section>
  );
}
