import { defineSearchAttributeKey, type SearchAttributePair, type SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';
import { CASE_SEARCH_ATTRIBUTES, type CaseSearchAttributeName, type CaseSearchFacts } from '../../domain/case-search';

/** The typed keys of the case search attributes (names and types from domain/case-search.ts). */
export const CASE_SEARCH_KEYS = {
  CaseKind: defineSearchAttributeKey('CaseKind', CASE_SEARCH_ATTRIBUTES.CaseKind),
  CaseLogNumber: defineSearchAttributeKey('CaseLogNumber', CASE_SEARCH_ATTRIBUTES.CaseLogNumber),
  CaseOpportunityId: defineSearchAttributeKey('CaseOpportunityId', CASE_SEARCH_ATTRIBUTES.CaseOpportunityId),
  CaseOrganizationId: defineSearchAttributeKey('CaseOrganizationId', CASE_SEARCH_ATTRIBUTES.CaseOrganizationId),
  CaseStatus: defineSearchAttributeKey('CaseStatus', CASE_SEARCH_ATTRIBUTES.CaseStatus),
  CaseStep: defineSearchAttributeKey('CaseStep', CASE_SEARCH_ATTRIBUTES.CaseStep),
  CaseOverdue: defineSearchAttributeKey('CaseOverdue', CASE_SEARCH_ATTRIBUTES.CaseOverdue),
  CaseChangedAt: defineSearchAttributeKey('CaseChangedAt', CASE_SEARCH_ATTRIBUTES.CaseChangedAt),
} satisfies Record<CaseSearchAttributeName, unknown>;

type Values = Partial<Record<CaseSearchAttributeName, string | boolean>>;

function valuesOf(facts: CaseSearchFacts, changedAt: string): Values {
  const v: Values = { CaseKind: facts.kind, CaseStatus: facts.status, CaseStep: facts.step, CaseOverdue: facts.overdue, CaseChangedAt: changedAt };
  if (facts.logNumber) v.CaseLogNumber = facts.logNumber;
  if (facts.opportunityId) v.CaseOpportunityId = facts.opportunityId;
  if (facts.organizationId) v.CaseOrganizationId = facts.organizationId;
  return v;
}

function pair(name: CaseSearchAttributeName, value: string | boolean): SearchAttributePair {
  const key = CASE_SEARCH_KEYS[name];
  return (key.type === 'DATETIME' ? { key, value: new Date(value as string) } : { key, value }) as SearchAttributePair;
}

/**
 * The search attributes a starter gives a case it starts (`typedSearchAttributes`), so its run need
 * not upsert them in its first workflow task (the run's keeper is told with `caseSearchKeeper(facts)`).
 */
export function caseStartSearchAttributes(facts: CaseSearchFacts, changedAt: string): SearchAttributePair[] {
  const values = valuesOf(facts, changedAt);
  return (Object.keys(values) as CaseSearchAttributeName[]).map((name) => pair(name, values[name]!));
}

/**
 * Keeps a case's search attributes current: each call upserts only the attributes whose value
 * changed since the last call (one command per change, none when nothing moved), so the history
 * grows by an event only when the status, step, overdue flag or last change moves. `atStart`: what
 * the starter already set (`caseStartSearchAttributes`), so an unchanged first call upserts nothing.
 */
export function caseSearchKeeper(atStart?: { facts: CaseSearchFacts; changedAt: string }) {
  let last: Values = atStart ? valuesOf(atStart.facts, atStart.changedAt) : {};
  return (facts: CaseSearchFacts, changedAt: string): void => {
    const next = valuesOf(facts, changedAt);
    const updates: SearchAttributeUpdatePair[] = [];
    for (const name of Object.keys(next) as CaseSearchAttributeName[]) {
      const value = next[name]!;
      if (last[name] === value) continue;
      updates.push(pair(name, value) as SearchAttributeUpdatePair);
    }
    if (updates.length === 0) return;
    upsertSearchAttributes(updates);
    last = next;
  };
}
