import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type MessageCode } from '../../lib/domain';

const CODE_BY_TEXT = new Map<string, MessageCode>(Object.entries(MESSAGES).map(([code, text]) => [text, code as MessageCode]));

/**
 * Form checks use the shared zod schemas, whose messages are the English catalogue texts; this
 * shows them in the reader's language ('Required' included).
 */
export function useFieldError(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation('common');
  return useCallback(
    (message) => {
      if (!message) return undefined;
      const code = CODE_BY_TEXT.get(message);
      if (code) return t(`errors.${code}`);
      return t('login.required');
    },
    [t],
  );
}
