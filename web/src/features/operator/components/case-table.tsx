import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { OperatorCaseSummary } from '../../../lib/domain';
import { formatDateTime } from '../../../lib/format';

/** Cases as the console lists them: each one opens its history. */
export function CaseTable({ rows, caption, showFailing = false }: { rows: OperatorCaseSummary[]; caption: string; showFailing?: boolean }) {
  const { t } = useTranslation('operator');
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('columns.case')}</th>
            <th scope="col">{t('columns.logNumber')}</th>
            <th scope="col">{t('columns.status')}</th>
            <th scope="col">{t('columns.step')}</th>
            <th scope="col">{t('columns.overdue')}</th>
            <th scope="col">{t('columns.changedAt')}</th>
            <th scope="col">{t('columns.execution')}</th>
            {showFailing ? <th scope="col">{t('columns.failing')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => {
            const [kind, id] = c.workflowId.split('/') as [string, string];
            return (
              <tr key={c.workflowId}>
                <th scope="row">
                  {c.kind ? (
                    <Link to={paths.operator.case.getHref(c.kind, id)} aria-label={t('open', { id: c.workflowId })}>
                      {t(`kinds.${c.kind}`)} {id.slice(0, 8)}
                    </Link>
                  ) : (
                    `${kind} ${id}`
                  )}
                </th>
                <td>{c.logNumber ?? ''}</td>
                <td>{c.status ?? ''}</td>
                <td>{c.step ?? ''}</td>
                <td>{c.overdue ? t('yes') : t('no')}</td>
                <td>{c.changedAt ? formatDateTime(c.changedAt) : ''}</td>
                <td>{c.execution}</td>
                {showFailing ? <td>{c.failing ? t('stuck.attempt', { activity: c.failing.activityType, attempt: c.failing.attempt }) : ''}</td> : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
