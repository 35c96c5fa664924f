import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import type { IncomeView } from '../../../lib/domain';
import { householdCalls, useHouseholdMutation } from '../api/profile';

/**
 * Section 5: the employer named on an uploaded pay stub differs from the saved one; the household
 * chooses whether to update the saved name (nothing changes unless they say yes).
 */
export function EmployerNamePrompt({ income, onPayStub, onClose }: { income: IncomeView | null; onPayStub: string; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const save = useHouseholdMutation(householdCalls.saveIncome);
  const saved = income && 'employerName' in income ? income.employerName : '';
  return (
    <Dialog open={income !== null} title={t('documents.employerTitle')} onClose={onClose}>
      <p>{t('documents.employerBody', { onPayStub, saved })}</p>
      <div className="action-buttons">
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            if (income) {
              const { memberName: _n, annualAmount: _a, ...entry } = income;
              save.mutate({ ...entry, employerName: onPayStub });
              onClose();
            }
          }}
        >
          {t('documents.employerUpdate')}
        </button>
        <button type="button" className="button button-secondary" onClick={onClose}>{t('documents.employerKeep')}</button>
      </div>
    </Dialog>
  );
}
