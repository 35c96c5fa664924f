/**
 * Runs started before the case kit replaced the three hand-written workflows have no marker for
 * this patch in their history: they keep running (and replaying) the frozen version-1 code in
 * `workflows/legacy/v1`. Every run started since records it in its first workflow task.
 */
export const CASE_KIT_PATCH = 'case-kit';

/**
 * Lease-up runs started since this patch issue their log number and write their read model as
 * local activities (issue 11: the read model kept up with applies at 8-10 a second because every
 * projection cost an activity task and a further workflow task). Older runs keep the activities
 * their history records.
 */
export const LOCAL_PROJECTION_PATCH = 'local-projection';
