import { useValidationText } from '../../../lib/validation-text';

/** A field's validation message in the reader's language (the schema's English text names it). */
export function FieldError({ id, message }: { id: string; message?: string }) {
  const text = useValidationText()(message);
  if (!text) return null;
  return (
    <span id={id} className="field-error" role="alert">
      {text}
    </span>
  );
}
