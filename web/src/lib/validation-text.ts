import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api-client';
import { isMessageCode, MESSAGES, validationCodeOf, type MessageCode, type ValidationCode } from './domain';
import { useErrorText as useBaseErrorText } from './errors';

const MESSAGE_CODE_BY_TEXT = new Map<string, MessageCode>(Object.entries(MESSAGES).map(([code, text]) => [text, code as MessageCode]));

/** The `common` key that translates a check's message: its catalogue code, else the generic one. */
export function validationTextKey(message: string): `errors.${MessageCode}` | `validation.${ValidationCode}` | 'validation.invalid' {
  const code = MESSAGE_CODE_BY_TEXT.get(message) ?? (isMessageCode(message) ? message : undefined);
  if (code) return `errors.${code}`;
  const validation = validationCodeOf(message);
  return validation ? `validation.${validation}` : 'validation.invalid';
}

/**
 * A check's message in the reader's language. The shared schemas and the API speak the spec's
 * English texts; each is translated by its code (section 8 catalogue `errors.<code>`, section 5
 * `validation.<code>`). A text with no code reads as the generic 'Please check this value' in the
 * reader's language: raw English never reaches a page in another language.
 */
export function useValidationText(): (message: string | undefined | null) => string | undefined {
  const { t } = useTranslation('common');
  return useCallback((message) => (message ? t(validationTextKey(message)) : undefined), [t]);
}

/**
 * The text to show for a failed call (lib/errors.ts), where a refused input (`validation`) names
 * which rule it broke in the reader's language, not the generic 'please check'.
 */
export function useErrorText(): (error: unknown) => string {
  const base = useBaseErrorText();
  const validationText = useValidationText();
  return useCallback(
    (error: unknown) => (error instanceof ApiError && error.code === 'validation' && error.message ? validationText(error.message)! : base(error)),
    [base, validationText],
  );
}
