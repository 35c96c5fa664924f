import { useTranslation } from 'react-i18next';
import { SignaturePadField } from '../signature-pad';
import { nextTicSigner, type ActionForm } from './form-kit';

/** The household signs the TIC (head of household first, then each adult member, on this device). */
export const SignTIC: ActionForm = {
  Fields: function SignTicFields({ application, onSignature }) {
    const { t } = useTranslation('leaseupApplications');
    const signer = nextTicSigner(application);
    return (
      <>
        <p>{t('sign.ticIntro')}</p>
        {signer ? <p className="signing-for">{t('sign.signingFor', { name: signer.name })}</p> : null}
        <SignaturePadField onChange={onSignature} />
      </>
    );
  },
  read: (_form, application, signature) => {
    if (!signature) return null;
    const member = nextTicSigner(application);
    return { signatureBase64: signature, ...(member && !member.isHead ? { memberId: member.id } : {}) };
  },
};

/** The household signs the lease letter. */
export const SignLeaseLetter: ActionForm = {
  Fields: function SignLeaseFields({ onSignature }) {
    const { t } = useTranslation('leaseupApplications');
    return (
      <>
        <p>{t('sign.leaseIntro')}</p>
        <SignaturePadField onChange={onSignature} />
      </>
    );
  },
  read: (_form, _application, signature) => (signature ? { signatureBase64: signature } : null),
};
