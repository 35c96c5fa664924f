import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/format';
import type { UndeliveredNotice } from '../lib/domain';

/**
 * Notices that reached nobody (every channel bounced, failed or was opted out), with why, so
 * someone can reach the household another way. On the manager's case file and the operator console.
 */
export function UndeliveredNotices({ notices, caseLabel }: { notices: (UndeliveredNotice & { caseKey?: string | null })[]; caseLabel?: (caseKey: string) => string }) {
  const { t } = useTranslation('caseFile');
  return (
    <div className="undelivered-notices" data-testid="undelivered-notices">
      {notices.length === 0 ? (
        <p>{t('undelivered.none')}</p>
      ) : (
        <ul>
          {notices.map((n, i) => (
            <li key={`${n.template}-${n.createdAt}-${i}`}>
              <strong>{t(`undelivered.template.${n.template}`, { defaultValue: n.template })}</strong>
              {caseLabel && n.caseKey ? ` (${caseLabel(n.caseKey)})` : ''}, {formatDateTime(n.createdAt)}:{' '}
              {n.channels.map((c) => t('undelivered.line', { channel: t(`undelivered.channel.${c.channel}`), reason: t(`undelivered.reason.${c.reason}`) })).join('; ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
