/**
 * Runs started before the case kit replaced the three hand-written workflows have no marker for
 * this patch in their history: they keep running (and replaying) the frozen version-1 code in
 * `workflows/legacy/v1`. Every run started since records it in its first workflow task.
 */
export const CASE_KIT_PATCH = 'case-kit';

/**
 * Lease-up cases invited from a lottery tell it when their lease is signed (the lottery closes once
 * every unit is leased). Runs that ended before this have no such signal in their history.
 */
export const LOTTERY_LEASED_PATCH = 'lottery-unit-leased';

/** Recertification runs that recorded this marker draw each signature onto the TIC (issue 12). */
export const TIC_SIGNATURE_PATCH = 'tic-signature-drawn';

/**
 * Lease-up runs started since this patch issue their log number and write their read model as
 * local activities (issue 11: the read model kept up with applies at 8-10 a second because every
 * projection cost an activity task and a further workflow task). Older runs keep the activities
 * their history records.
 */
export const LOCAL_PROJECTION_PATCH = 'local-projection';

/**
 * Lottery runs started since this patch write their read model as local activities (issue 11): the
 * manager's page reads the projection (a Query waited behind the invitations), so the view lands in
 * the same workflow task as the change instead of one activity task and one workflow task later.
 * Older runs keep the activities their history records.
 */
export const LOTTERY_LOCAL_PROJECTION_PATCH = 'lottery-local-projection';

/**
 * Case runs started since this patch carry search attributes (issue 20: kind, log number,
 * opportunity, organisation, status, step, overdue flag, last change), upserted in their first
 * workflow task and after every change. Older runs have no marker and upsert nothing on replay.
 */
export const SEARCH_ATTRIBUTES_PATCH = 'search-attributes';

/**
 * Lease-up runs started since this patch also write the read model after each action as a local
 * activity, inside the action's own workflow task (issue 11). Before, that projection was an activity
 * task and one more workflow task after the answer, and a Query or the next action arriving then
 * waited behind them; now the answer waits for the one write instead, and an action costs 6 history
 * events rather than 11. Older runs keep the activities their history records.
 */
export const LOCAL_ACTION_PROJECTION_PATCH = 'local-action-projection';

/**
 * Lease-up runs started since this patch record this one marker in place of every earlier patch of
 * the kind (issue 11): CASE_KIT_PATCH, LOCAL_PROJECTION_PATCH, LOCAL_ACTION_PROJECTION_PATCH,
 * SEARCH_ATTRIBUTES_PATCH and, once its lease is signed, LOTTERY_LEASED_PATCH all hold without a
 * marker of their own. Each marker also makes the SDK upsert the TemporalChangeVersion search
 * attribute, so a new case cost the server eight events and four visibility writes for its patches
 * alone; now two events and one write. Such runs also upsert their case search attributes once in their first workflow
 * task, after the start's change, not before it as well. Older runs answer each patch as recorded.
 */
export const LEASE_UP_CURRENT_PATCH = 'lease-up-current-1';
