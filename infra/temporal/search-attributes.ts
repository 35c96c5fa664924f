/**
 * Registering the case search attributes (domain/case-search.ts) on a Temporal namespace: the dev
 * server takes them as `--search-attribute Name=Type` at start (`npm start`, the tests' server);
 * a server already running takes them through the operator service (the time-skipping test server,
 * or a cluster, where infra/production/README.md gives the `temporal operator search-attribute create` command).
 */
import type { Connection } from '@temporalio/client';
import { TypedSearchAttributes, defineSearchAttributeKey, type SearchAttributeType } from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType, type SearchAttributeKey } from '@temporalio/common/lib/search-attributes';
import { CASE_SEARCH_ATTRIBUTES, type CaseSearchAttributeName } from '../../domain/case-search';

/** The attributes as typed keys (what @temporalio/testing's `server.searchAttributes` takes). */
export function caseSearchAttributeKeys(): SearchAttributeKey<SearchAttributeType>[] {
  return (Object.keys(CASE_SEARCH_ATTRIBUTES) as CaseSearchAttributeName[]).map((name) => defineSearchAttributeKey(name, CASE_SEARCH_ATTRIBUTES[name]));
}

/** `--search-attribute Name=Type` for each attribute, for `temporal server start-dev`. */
export function caseSearchAttributeArgs(): string[] {
  return caseSearchAttributeKeys().flatMap((k) => ['--search-attribute', `${k.name}=${TypedSearchAttributes.toMetadataType(k.type)}`]);
}

/**
 * Adds the attributes to the namespace. A server that has them already answers ALREADY_EXISTS,
 * which is fine (the time-skipping test server has no ListSearchAttributes to ask first).
 */
export async function registerCaseSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(caseSearchAttributeKeys().map((k) => [k.name, encodeSearchAttributeIndexedValueType(k.type)!])),
    });
  } catch (error) {
    // 6: ALREADY_EXISTS.
    if ((error as { code?: number }).code !== 6) throw error;
  }
}
