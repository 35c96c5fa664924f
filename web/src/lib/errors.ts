import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';
import { isMessageCode } from './domain-core';

/**
 * The text to show for a failed call, in the reader's language, chosen by the envelope's
 * `data.code` (domain/messages.ts). Codes the app does not know read as 'Something went wrong.'.
 */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation('common');
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError) {
        if (isMessageCode(error.code)) return t(`errors.${error.code}`);
        if (error.code === 'validation') return t('errors.validation');
      }
      return t('errors.somethingWentWrong');
    },
    [t],
  );
}
