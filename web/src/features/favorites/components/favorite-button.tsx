import { useTranslation } from 'react-i18next';
import { useToast } from '../../../components/ui/toast';
import { useErrorText } from '../../../lib/errors';
import { useFavorites, useSetFavorite } from '../api/favorites';

/** A toggle that keeps an opportunity in "My favourites" (aria-pressed tells its state). */
export function FavoriteButton({ opportunityId }: { opportunityId: string }) {
  const { t } = useTranslation('opportunities');
  const favorites = useFavorites();
  const setFavorite = useSetFavorite();
  const toast = useToast();
  const errorText = useErrorText();
  const isFavorite = (favorites.data ?? []).some((o) => o.id === opportunityId);
  return (
    <button
      type="button"
      className="button button-secondary"
      aria-pressed={isFavorite}
      disabled={favorites.isPending || setFavorite.isPending}
      onClick={() =>
        setFavorite.mutate(
          { opportunityId, isFavorite: !isFavorite },
          { onSuccess: () => toast.showSuccess(isFavorite ? t('favorites.removed') : t('favorites.added')), onError: (e) => toast.showError(errorText(e)) },
        )
      }
    >
      {isFavorite ? `★ ${t('favorites.remove')}` : `☆ ${t('favorites.add')}`}
    </button>
  );
}
