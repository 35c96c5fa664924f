import type { TFunction } from 'i18next';

/**
 * Preference groups with a translated name (the codes of LOTTERY_GROUPS in domain/lottery.ts on
 * main: import it from there once merged); any other group code is shown as it is stored.
 */
const NAMED_GROUPS = ['disability', 'senior', 'community'] as const;
type NamedGroup = (typeof NAMED_GROUPS)[number];

export function groupName(t: TFunction<'lottery'>, group: string): string {
  return (NAMED_GROUPS as readonly string[]).includes(group) ? t(`groups.${group as NamedGroup}`) : group;
}
