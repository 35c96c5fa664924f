/**
 * Runs started before the case kit replaced the three hand-written workflows have no marker for
 * this patch in their history: they keep running (and replaying) the frozen version-1 code in
 * `workflows/legacy/v1`. Every run started since records it in its first workflow task.
 */
export const CASE_KIT_PATCH = 'case-kit';

/** Recertification runs that recorded this marker draw each signature onto the TIC (issue 12). */
export const TIC_SIGNATURE_PATCH = 'tic-signature-drawn';
