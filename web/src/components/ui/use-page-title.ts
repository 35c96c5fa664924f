import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Names the browser tab after the page, so screen-reader users hear where they landed. */
export function usePageTitle(title: string): void {
  const { t } = useTranslation('common');
  const brand = t('brand');
  useEffect(() => {
    document.title = title ? `${title} | ${brand}` : brand;
  }, [title, brand]);
}
