import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { useErrorText } from '../../../lib/validation-text';

export type Failure =
  | 'memberSave' | 'memberDelete' | 'entitlementUpdate' | 'assetOwnership' | 'trustOwnership' | 'insuranceOwnership'
  | 'incomeDelete' | 'incomeSave' | 'investmentsSave' | 'disposedAssetsSave' | 'bankAccountsSave' | 'assetSave' | 'assetDelete';

/** Codes that say nothing more than "it failed": the entity's own message says it better. */
const GENERIC = new Set(['somethingWentWrong', 'unexpectedError', 'serviceUnavailable', 'unknown', 'network', 'timeout']);

/**
 * Spec section 8 "other messages": a failed save or delete names what failed (failed to delete a
 * member, to save income, error saving investments...), followed by the reason when the server gave
 * a specific one (a locked profile, a broken rule).
 */
export function useFailureText(): (error: unknown, failure: Failure) => string {
  const { t } = useTranslation('profile');
  const errorText = useErrorText();
  return useCallback(
    (error, failure) => {
      const what = t(`failed.${failure}`);
      const specific = error instanceof ApiError && !GENERIC.has(error.code);
      return specific ? `${what} ${errorText(error)}` : what;
    },
    [t, errorText],
  );
}

/** Which failure message a saved asset of each kind uses. */
export const ASSET_SAVE_FAILURE: Record<string, Failure> = { InvestmentAssets: 'investmentsSave', DisposedAssets: 'disposedAssetsSave', BankAccounts: 'bankAccountsSave' };
