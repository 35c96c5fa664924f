import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SentenceWithText } from '../../../components/translatable-text';
import { paths } from '../../../config/paths';
import { api } from '../../../lib/api-client';
import { PAGE_SIZE_MAX, type Page, type UploadedDocument } from '../../../lib/domain';

/**
 * The applicant's documents the manager rejected, each with the manager's reason, and the
 * way to My Documents to upload a new one. Nothing is shown while none is rejected.
 */
export function DocumentsToFix() {
  const { t } = useTranslation(['leaseupApplications', 'lookups']);
  const query = useQuery({
    queryKey: ['household', 'documents', 'rejected'],
    queryFn: ({ signal }) => api.get<Page<UploadedDocument>>('/Document', { signal, query: { rejected: true, limit: PAGE_SIZE_MAX } }),
  });
  const rejected = query.data?.items ?? [];
  if (rejected.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="documents-to-fix-heading" data-testid="documents-to-fix">
      <h2 id="documents-to-fix-heading">{t('leaseupApplications:documentsToFix.title')}</h2>
      <ul>
        {rejected.map((d) => (
          <li key={d.id}>
            <SentenceWithText
              text={d.rejectionReason ?? ''}
              sentence={(reason) =>
                t('leaseupApplications:documentsToFix.line', {
                  name: `${t(`lookups:documentType.${d.documentTypeName}`, { defaultValue: d.documentTypeName })} (${d.fileName})`,
                  reason,
                })
              }
            />
          </li>
        ))}
      </ul>
      <p>
        <Link to={paths.app.myDocument.getHref()}>{t('leaseupApplications:documentsToFix.link')}</Link>
      </p>
    </section>
  );
}
