import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaseFileDocument, CaseFileKind } from '../../../lib/domain';
import { documentPreviewUrl } from '../api/case-file';

const isImage = (type: string) => type.startsWith('image/') && type !== 'image/heic' && type !== 'image/tiff';

/** The document shown in the page: a PDF in a frame, an image as an image; other types are named only. */
export function DocumentPreview({ kind, caseId, document: d }: { kind: CaseFileKind; caseId: string; document: CaseFileDocument }) {
  const { t } = useTranslation('caseFile');
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    documentPreviewUrl(kind, caseId, d.id).then(
      (u) => {
        made = u;
        if (live) setUrl(u);
        else URL.revokeObjectURL(u);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [kind, caseId, d.id]);
  if (failed) return <p role="alert">{t('documents.previewFailed')}</p>;
  if (!url) return <p>{t('documents.loadingPreview')}</p>;
  const title = t('documents.previewOf', { name: d.fileName });
  if (d.contentType === 'application/pdf') return <iframe className="case-file-preview" src={url} title={title} data-testid="document-preview" />;
  if (isImage(d.contentType)) return <img className="case-file-preview" src={url} alt={title} data-testid="document-preview" />;
  return (
    <p>
      {t('documents.noPreview')}{' '}
      <a href={url} download={d.fileName}>{t('documents.download', { name: d.fileName })}</a>
    </p>
  );
}
