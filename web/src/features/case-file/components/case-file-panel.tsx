import { useTranslation } from 'react-i18next';
import { LoadError, Loading } from '../../../components/ui/status-message';
import { useErrorText } from '../../../lib/errors';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { CaseFile, CaseFileKind } from '../../../lib/domain';
import { useCaseFile } from '../api/case-file';
import { CertificationChangesSection } from './certification-changes';
import { DocumentReview } from './document-review';
import { UndeliveredNotices } from '../../../components/undelivered-notices';

/**
 * The manager's case file, the same for lease-up, recertification and relocation: the
 * household, its incomes and assets, the AMI band, housing choices, and every document to preview
 * and review; for recertification, what changed since the last approved certification first.
 */
export function CaseFilePanel({ kind, caseId }: { kind: CaseFileKind; caseId: string }) {
  const { t } = useTranslation('caseFile');
  const errorText = useErrorText();
  const query = useCaseFile(kind, caseId);
  return (
    <section className="panel case-file" aria-labelledby="case-file-heading" data-testid="case-file">
      <h2 id="case-file-heading">{t('title')}</h2>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <LoadError title={t('loadFailed')} detail={errorText(query.error)} onRetry={() => void query.refetch()} />
      ) : (
        <CaseFileBody file={query.data} />
      )}
    </section>
  );
}

function CaseFileBody({ file }: { file: CaseFile }) {
  const { t } = useTranslation(['caseFile', 'lookups', 'recertification']);
  const yesNo = (v: boolean) => (v ? t('caseFile:yes') : t('caseFile:no'));
  return (
    <>
      {file.kind === 'recertification' ? <CertificationChangesSection changes={file.changes} /> : null}
      {/* Shown only when a notice reached nobody: the manager reaches the household another way. */}
      {file.undeliveredNotices.length > 0 ? (
        <>
          <h3>{t('caseFile:undelivered.title')}</h3>
          <UndeliveredNotices notices={file.undeliveredNotices} />
        </>
      ) : null}
      <h3>{t('caseFile:members.title')}</h3>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('caseFile:members.title')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('caseFile:members.name')}</th>
              <th scope="col">{t('caseFile:members.relationship')}</th>
              <th scope="col">{t('caseFile:members.age')}</th>
              <th scope="col">{t('caseFile:members.student')}</th>
              <th scope="col">{t('caseFile:members.disability')}</th>
            </tr>
          </thead>
          <tbody>
            {file.members.map((m, i) => (
              <tr key={`${m.name}-${i}`}>
                <td>{m.name}</td>
                <td>{t(`lookups:relationship.${m.relationship}`, { defaultValue: m.relationship })}</td>
                <td>{m.age}</td>
                <td>{yesNo(m.student)}</td>
                <td>{yesNo(m.disability)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3>{t('caseFile:incomes.title')}</h3>
      {file.incomes.length === 0 ? <p>{t('caseFile:incomes.none')}</p> : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={t('caseFile:incomes.title')}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('caseFile:members.name')}</th>
                <th scope="col">{t('caseFile:incomes.type')}</th>
                <th scope="col">{t('caseFile:incomes.amount')}</th>
                <th scope="col">{t('caseFile:incomes.annual')}</th>
              </tr>
            </thead>
            <tbody>
              {file.incomes.map((i, n) => (
                <tr key={`${i.memberName}-${i.incomeType}-${n}`}>
                  <td>{i.memberName}</td>
                  <td>{t(`lookups:incomeType.${i.incomeType}`, { defaultValue: i.incomeType })}{i.sourceName ? ` (${i.sourceName})` : ''}</td>
                  <td>{t('caseFile:incomes.every', { amount: formatMoney(i.amount), frequency: t(`lookups:payFrequency.${i.frequency}`, { defaultValue: i.frequency }) })}</td>
                  <td>{formatMoney(i.annual)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p data-testid="total-income"><strong>{t('caseFile:incomes.total')}</strong>: {formatMoney(file.totalIncome)}</p>

      <h3>{t('caseFile:assets.title')}</h3>
      {file.assets.length === 0 ? <p>{t('caseFile:assets.none')}</p> : (
        <ul>
          {file.assets.map((a, n) => (
            <li key={`${a.memberName}-${a.kind}-${n}`}>
              {t('caseFile:assets.line', { name: a.memberName || '—', kind: t(`lookups:assetKind.${a.kind}`, { defaultValue: a.kind }), value: formatMoney(a.value), income: formatMoney(a.income) })}
            </li>
          ))}
        </ul>
      )}
      <p><strong>{t('caseFile:assets.income')}</strong>: {formatMoney(file.assetIncome)}</p>

      <h3>{t('caseFile:ami.title')}</h3>
      <p data-testid="ami-band">
        {file.ami
          ? t('recertification:band.value', { band: t(`recertification:band.${file.ami.band}`), percent: file.ami.amiPercent })
          : t('recertification:band.unknown')}
        {file.ami?.incomeFit ? ` · ${t(`caseFile:ami.fit.${file.ami.incomeFit}`, { size: file.ami.householdSize })}` : ''}
      </p>

      <h3>{t('caseFile:choices.title')}</h3>
      <HousingChoices choices={file.housingChoices} />

      <h3>{t('caseFile:documents.title')}</h3>
      {file.documents.length === 0 ? <p>{t('caseFile:documents.none')}</p> : (
        <ul className="case-file-documents">
          {file.documents.map((d) => <DocumentReview key={d.id} kind={file.kind} caseId={file.caseId} document={d} />)}
        </ul>
      )}
      <p className="muted">{t('caseFile:readAt', { time: formatDateTime(new Date().toISOString()) })}</p>
    </>
  );
}

interface Preferences {
  interests?: Record<string, boolean>;
  unitSize?: string;
  preferredCounties?: string[];
  accessibility?: string[];
}

/** Interests, unit size, counties and accessibility needs, as the household chose them. */
function HousingChoices({ choices }: { choices: CaseFile['housingChoices'] }) {
  const { t } = useTranslation(['caseFile', 'lookups']);
  const p = (choices.preferences ?? {}) as Preferences;
  const interests = Object.entries(p.interests ?? {}).filter(([, on]) => on).map(([k]) => t(`lookups:housingInterest.${k}`, { defaultValue: k }));
  const list = (values: string[]) => (values.length ? values.join(', ') : '—');
  return (
    <dl className="facts">
      <dt>{t('caseFile:choices.interests')}</dt>
      <dd>{list(interests)}</dd>
      <dt>{t('caseFile:choices.unitSize')}</dt>
      <dd>{p.unitSize ? t(`lookups:unitSize.${p.unitSize}`, { defaultValue: p.unitSize }) : '—'}</dd>
      <dt>{t('caseFile:choices.counties')}</dt>
      <dd>{list((p.preferredCounties ?? []).map((c) => t(`lookups:county.${c}`, { defaultValue: c })))}</dd>
      <dt>{t('caseFile:choices.accessibility')}</dt>
      <dd>{list((p.accessibility ?? []).map((a) => t(`lookups:accessibility.${a}`, { defaultValue: a })))}</dd>
      <dt>{t('caseFile:choices.rentalAssistance')}</dt>
      <dd>{choices.rentalAssistance.length}</dd>
    </dl>
  );
}
