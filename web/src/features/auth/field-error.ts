import { useValidationText } from '../../lib/validation-text';

/**
 * Form checks use the shared zod schemas, whose messages are the spec's English texts; this shows
 * them in the reader's language ('Required' included).
 */
export const useFieldError = useValidationText;
