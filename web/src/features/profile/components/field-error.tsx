import { useTranslation } from 'react-i18next';
import { validationKey } from './validation-keys';

/** A field's validation message in the reader's language (the schema's English text is the key). */
export function FieldError({ id, message }: { id: string; message?: string }) {
  const { t } = useTranslation('profile');
  if (!message) return null;
  const key = validationKey(message);
  return (
    <span id={id} className="field-error" role="alert">
      {key ? t(`validation.${key}` as never) : message}
    </span>
  );
}
