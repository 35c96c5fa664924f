import { getAccessToken } from '../../../lib/session';

/** Spec section 9: a document link is revoked after 10 s. */
const REVOKE_AFTER_MS = 10_000;

/** Opens the application's TIC or lease letter (latest signed copy) in a new tab. */
export async function openLetter(applicationId: string, kind: 'tic' | 'lease'): Promise<void> {
  const response = await fetch(`/api/LeaseUpApplication/letter/${encodeURIComponent(applicationId)}/${kind}`, {
    headers: { authorization: `Bearer ${getAccessToken() ?? ''}` },
  });
  if (!response.ok) throw new Error(`letter ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
