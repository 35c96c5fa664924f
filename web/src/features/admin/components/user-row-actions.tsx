import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { ROLES, type AdminUserRow, type Role } from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { useChangeRole, useUserAction } from '../api/admin';

/** Per-user admin actions: role, deactivate (confirmed) or reactivate, resend verification, history. */
export function UserRowActions({ user, isSelf, onHistory }: { user: AdminUserRow; isSelf: boolean; onHistory: () => void }) {
  const { t } = useTranslation('ambassador');
  const toast = useToast();
  const errorText = useErrorText();
  const roleId = useId();
  const [role, setRole] = useState<Role>(user.role);
  const [confirming, setConfirming] = useState(false);
  const action = useUserAction();
  const changeRole = useChangeRole();
  const name = `${user.firstName} ${user.lastName}`.trim();
  const onError = (error: unknown) => toast.showError(errorText(error));
  const run = (kind: 'deactivate' | 'reactivate' | 'resend-verification', done: string) =>
    action.mutate({ userId: user.userId, action: kind }, { onSuccess: () => toast.showSuccess(done), onError });

  return (
    <div className="action-buttons">
      {isSelf ? null : (
        <form className="inline-form" onSubmit={(e) => { e.preventDefault(); changeRole.mutate({ userId: user.userId, role }, { onSuccess: () => toast.showSuccess(t('admin.users.roleChanged')), onError }); }}>
          <label htmlFor={roleId} className="visually-hidden">
            {t('admin.users.changeRole', { name })}
          </label>
          <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`admin.users.roles.${r}`)}
              </option>
            ))}
          </select>
          <button type="submit" className="button button-secondary" disabled={role === user.role || changeRole.isPending} aria-label={t('admin.users.saveRoleFor', { name })}>
            {t('admin.users.saveRole')}
          </button>
        </form>
      )}
      {isSelf ? null : user.status === 'active' ? (
        <button type="button" className="button button-danger" onClick={() => setConfirming(true)} aria-label={t('admin.users.deactivateName', { name })}>
          {t('admin.users.deactivate')}
        </button>
      ) : (
        <button type="button" className="button button-secondary" onClick={() => run('reactivate', t('admin.users.reactivated', { name }))} aria-label={t('admin.users.reactivateName', { name })}>
          {t('admin.users.reactivate')}
        </button>
      )}
      {user.emailVerified ? null : (
        <button type="button" className="button button-secondary" onClick={() => run('resend-verification', t('admin.users.verificationSent'))}>
          {t('admin.users.resend')}
        </button>
      )}
      <button type="button" className="button button-secondary" onClick={onHistory} aria-label={t('admin.users.historyTitle', { name })}>
        {t('admin.users.history')}
      </button>
      <Dialog open={confirming} title={t('admin.users.deactivateName', { name })} onClose={() => setConfirming(false)}>
        <p>{t('admin.users.confirmDeactivate', { name })}</p>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
            {t('create.cancel')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              setConfirming(false);
              run('deactivate', t('admin.users.deactivated', { name }));
            }}
          >
            {t('admin.users.deactivate')}
          </button>
        </div>
      </Dialog>
    </div>
  );
}
