import { useTranslation } from 'react-i18next';

/** Spec section 1: the product only collects data and runs workflow; people make the decisions. */
export function SiteFooter() {
  const { t } = useTranslation('common');
  return (
    <footer className="site-footer">
      <p>{t('layout.footer')}</p>
    </footer>
  );
}
