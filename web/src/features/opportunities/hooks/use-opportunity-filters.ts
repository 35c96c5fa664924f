import { useCallback, useState } from 'react';
import { parseOpportunityFilter, STORAGE_KEYS, type OpportunityFilter } from '../../../lib/domain-core';

function readStored(): OpportunityFilter {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.opportunityFilters);
    const parsed = parseOpportunityFilter(raw ? JSON.parse(raw) : {});
    if (parsed) return parsed;
  } catch {
    // A damaged stored value just means no saved filters.
  }
  return { type: 'all' };
}

/** Spec section 2: the rental/ownership/all filter and the search are kept locally (key opportunityFilters). */
export function useOpportunityFilters() {
  const [filters, setFilters] = useState<OpportunityFilter>(readStored);
  const update = useCallback((next: OpportunityFilter) => {
    const clean: OpportunityFilter = next.search?.trim() ? { type: next.type, search: next.search.trim() } : { type: next.type };
    setFilters(clean);
    try {
      localStorage.setItem(STORAGE_KEYS.opportunityFilters, JSON.stringify(clean));
    } catch {
      // Not being able to remember filters is no reason to stop filtering.
    }
  }, []);
  return [filters, update] as const;
}
