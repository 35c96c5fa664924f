import { useTranslation } from 'react-i18next';
import type { ImpersonationAuditEntry } from '../lib/domain';
import { formatDateTime } from '../lib/format';

const formatTime = (iso: string) => formatDateTime(iso);

/** Who acted, for whom, what they did and when (used by the household's settings and the admin). */
export function AuditTable({ rows, caption, showFor = false }: { rows: ImpersonationAuditEntry[]; caption: string; showFor?: boolean }) {
  const { t } = useTranslation('ambassador');
  const what = (e: ImpersonationAuditEntry) => (e.event === 'request' ? `${e.method ?? ''} ${e.path ?? ''}`.trim() : t(`household.events.${e.event}`));
  const result = (e: ImpersonationAuditEntry) =>
    e.event !== 'request' || e.statusCode === null ? '' : e.statusCode < 400 ? t('household.resultOk') : t('household.resultRefused', { status: e.statusCode });
  return (
    // Focusable and named, so keyboard users can scroll a wide table on a narrow screen.
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('household.columns.when')}</th>
            <th scope="col">{t('household.columns.who')}</th>
            {showFor ? <th scope="col">{t('household.columns.forWhom')}</th> : null}
            <th scope="col">{t('household.columns.what')}</th>
            <th scope="col">{t('household.columns.result')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.id}>
              <td>{formatTime(e.at)}</td>
              <td>{e.realUserName}</td>
              {showFor ? <td>{e.actingUserName}</td> : null}
              <td>
                <code>{what(e)}</code>
              </td>
              <td>{result(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
