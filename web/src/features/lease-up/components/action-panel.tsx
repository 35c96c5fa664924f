import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import {
  ACTIONS_NEEDING_REASON,
  IRREVERSIBLE_ACTIONS,
  type ApplicationDetail,
  type LeaseUpAction,
} from '../../../lib/domain';
import { useErrorText } from '../../../lib/errors';
import { isKnownAction, useRunAction, type ActionPayload } from '../api/run-action';
import { ActionDialog } from './action-dialog';
import { ACTIONS_WITH_FIELDS } from './action-fields';
import { useLeaseUpLabels } from './labels';

/**
 * The buttons come only from `availableActions[viewerRole]` as the server computed them; the client
 * never decides what is allowed. Irreversible actions are confirmed and some need a reason (spec 4).
 */
export function ActionPanel({ application }: { application: ApplicationDetail }) {
  const { t } = useTranslation('leaseupApplications');
  const labels = useLeaseUpLabels();
  const errorText = useErrorText();
  const toast = useToast();
  const run = useRunAction();
  const [asking, setAsking] = useState<LeaseUpAction | null>(null);

  const role = application.viewerRole;
  const offered: readonly string[] = application.availableActions[role] ?? [];
  const actions = offered.filter((action) => isKnownAction(role, action)) as LeaseUpAction[];

  function execute(action: LeaseUpAction, payload: ActionPayload = {}) {
    run.mutate(
      { applicationId: application.applicationId, role, action, payload },
      {
        onSuccess: () => {
          setAsking(null);
          toast.showSuccess(t('detail.updated'));
        },
        // Close the dialog: a modal dialog would cover the toast, and the page reloads anyway.
        onError: (error) => {
          setAsking(null);
          toast.showError(errorText(error));
        },
      },
    );
  }

  function onClick(action: LeaseUpAction) {
    if (IRREVERSIBLE_ACTIONS.includes(action) || ACTIONS_NEEDING_REASON.includes(action) || ACTIONS_WITH_FIELDS.includes(action)) setAsking(action);
    else execute(action);
  }

  return (
    <section className="panel" aria-labelledby="actions-heading">
      <h2 id="actions-heading">{t('detail.actions')}</h2>
      {actions.length === 0 ? (
        <p>{t('detail.noActions')}</p>
      ) : (
        <div className="action-buttons">
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              className={`button ${IRREVERSIBLE_ACTIONS.includes(action) ? 'button-danger' : 'button-primary'}`}
              disabled={run.isPending}
              onClick={() => onClick(action)}
            >
              {labels.action(action)}
            </button>
          ))}
        </div>
      )}
      {asking ? (
        <ActionDialog
          action={asking}
          application={application}
          pending={run.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={(payload) => execute(asking, payload)}
        />
      ) : null}
    </section>
  );
}
