import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './confirm-dialog';

/**
 * The income and asset questions. YES is saved at once; NO when entries exist first asks the user,
 * because the server then deletes every entry of the section.
 */
export function YesNoQuestion({ question, value, entries, onAnswer }: { question: string; value: boolean | null; entries: number; onAnswer: (answer: boolean) => void }) {
  const { t } = useTranslation('profile');
  const [confirming, setConfirming] = useState(false);
  return (
    <fieldset className="radio-group">
      <legend>{question}</legend>
      <label className="radio">
        <input type="radio" checked={value === true} onChange={() => onAnswer(true)} /> {t('form.yes')}
      </label>
      <label className="radio">
        <input type="radio" checked={value === false} onChange={() => (entries > 0 ? setConfirming(true) : onAnswer(false))} /> {t('form.no')}
      </label>
      <ConfirmDialog
        open={confirming}
        title={t('confirm.title')}
        body={t('confirm.body', { count: entries })}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onAnswer(false);
        }}
      />
    </fieldset>
  );
}
