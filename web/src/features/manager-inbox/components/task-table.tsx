import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { TIMELINE_STEPS, type PendingTask, type TimelineStep } from '../../../lib/domain';
import { formatDate } from '../../../lib/format';
import type { InboxCase } from '../inbox';

/** Where a case opens: lease-up applications have their review page; other kinds their own screens. */
function caseHref(c: InboxCase): string {
  if (c.caseKind === 'lease_up') return paths.app.application.getHref(c.caseId);
  if (c.caseKind === 'recertification') return paths.manager.recertification.getHref(c.caseId);
  return paths.manager.relocation.getHref(c.caseId);
}

/** Ticked applications (lease-up cases only: bulk actions act on applications). */
export interface CaseSelection {
  selected: ReadonlySet<string>;
  toggle(caseId: string, on: boolean): void;
  toggleAll(caseIds: string[], on: boolean): void;
}

/** The manager inbox: one row per case with its open tasks, due date and overdue flag. */
export function TaskTable({ rows, selection }: { rows: InboxCase[]; selection?: CaseSelection }) {
  // Lease-up steps and actions are named once, in the lease-up texts; recertification and relocation ones are here.
  const { t } = useTranslation(['managerInbox', 'leaseupApplications']);
  const stepLabel = (step: string) =>
    (TIMELINE_STEPS as readonly string[]).includes(step) ? t(`leaseupApplications:steps.${step as TimelineStep}`) : t(`otherSteps.${step}`, { defaultValue: step });
  const actionLabel = (kind: string, action: string) =>
    kind === 'lease_up' ? t(`leaseupApplications:actions.${action as PendingTask['action']}`) : t(`otherActions.${action}`, { defaultValue: action });
  const applications = rows.filter((c) => c.caseKind === 'lease_up').map((c) => c.caseId);
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={t('title')}>
      <table>
        <caption className="visually-hidden">{t('title')}</caption>
        <thead>
          <tr>
            {selection ? (
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label={t('bulk.selectAll')}
                  checked={applications.length > 0 && applications.every((id) => selection.selected.has(id))}
                  onChange={(e) => selection.toggleAll(applications, e.target.checked)}
                />
              </th>
            ) : null}
            <th scope="col">{t('columns.household')}</th>
            <th scope="col">{t('kind')}</th>
            <th scope="col">{t('columns.opportunity')}</th>
            <th scope="col">{t('columns.step')}</th>
            <th scope="col">{t('columns.tasks')}</th>
            <th scope="col">{t('dueDate')}</th>
            <th scope="col">{t('columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => {
            const href = caseHref(c);
            return (
              <tr key={`${c.caseKind}:${c.caseId}`}>
                {selection ? (
                  <td>
                    {c.caseKind === 'lease_up' ? (
                      <input
                        type="checkbox"
                        aria-label={t('bulk.select', { name: c.householdName })}
                        checked={selection.selected.has(c.caseId)}
                        onChange={(e) => selection.toggle(c.caseId, e.target.checked)}
                      />
                    ) : null}
                  </td>
                ) : null}
                <th scope="row">{c.householdName}</th>
                <td>{t(`kinds.${c.caseKind}`)}</td>
                <td>{c.contextName ?? ''}</td>
                <td>{stepLabel(c.step)}</td>
                <td>
                  <ul className="task-list">
                    {c.tasks.map((task) => (
                      <li key={task.taskId}>{actionLabel(task.caseKind, task.action)}</li>
                    ))}
                  </ul>
                </td>
                <td>
                  {c.dueAt ? formatDate(c.dueAt) : ''}
                  {c.overdue ? <span className="badge badge-urgent"> {t('overdue')}</span> : null}
                </td>
                <td>
                  <Link className="button button-secondary" to={href} aria-label={t('openOf', { name: c.householdName, log: c.contextName ?? '' })}>
                    {t('open')}
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
