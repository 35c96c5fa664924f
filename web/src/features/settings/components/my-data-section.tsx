import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { isMessageCode } from '../../../lib/domain-core';
import { useErrorText } from '../../../lib/errors';
import { getRealUser } from '../../../lib/session';
import { downloadMyData } from '../api/settings';

/** "Download my data": the household's whole record as one zip. Hidden while someone acts for the household (the API refuses it too). */
export function MyDataSection() {
  const { t, i18n } = useTranslation('profileSetting');
  const toast = useToast();
  const errorText = useErrorText();
  const download = useMutation({
    mutationFn: () => downloadMyData(i18n.resolvedLanguage ?? 'en'),
    onSuccess: () => toast.showSuccess(t('myData.ready')),
    onError: (error) => toast.showError(error instanceof ApiError && isMessageCode(error.code) ? errorText(error) : t('myData.failed')),
  });
  if (getRealUser()) return null;
  return (
    <section aria-labelledby="my-data-heading" className="card">
      <h2 id="my-data-heading">{t('myData.title')}</h2>
      <p>{t('myData.intro')}</p>
      <button type="button" className="button" disabled={download.isPending} aria-busy={download.isPending} onClick={() => download.mutate()}>
        {download.isPending ? t('myData.preparing') : t('myData.download')}
      </button>
    </section>
  );
}
