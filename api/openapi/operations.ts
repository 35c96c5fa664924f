import { MESSAGES, ROLES, statusOfRefusal, type Role } from '../../domain';

/**
 * What the OpenAPI document says about each /api route beyond its zod schemas: the
 * section-7 group it belongs to (tag), a summary, who may call it, and the answers it gives in the
 * `{status, message, data}` envelope. Everything here is derived from the route as registered
 * (URL, methods, guard, schemas), so routes added later are described without an edit here.
 */

/** Spec section 7's groups (and the groups added since), by the path segment after /api. */
const GROUPS: Record<string, string> = {
  Account: 'Auth',
  Household: 'Household',
  Lookups: 'Lookups',
  HouseholdIncome: 'Income',
  HouseholdAssets: 'Assets',
  Document: 'Documents',
  SpecialIncome: 'Special income',
  TenantRecertificationStatus: 'Recertification',
  HousingChoices: 'Housing choices',
  ProfileMatch: 'Profile match',
  UserProfile: 'User profile',
  Signature: 'User profile',
  Dashboard: 'Dashboard',
  Ambassador: 'Ambassador',
  redirect: 'Notification redirect log',
  Opportunity: 'Opportunities',
  FavoriteOpportunity: 'Favourites',
  LeaseUpApplication: 'Applications',
  Chat: 'Chat',
  SupportTicket: 'Support tickets',
  Relocation: 'Relocation',
  // Section 7's AI extraction (/api/v1/account-details).
  v1: 'AI extraction',
  // Section 7's translator and AI intake bot (under Chat).
  Translator: 'Translator',
  intake: 'Chat',
  // Not in section 7: added by later issues.
  ManagerTasks: 'Manager tasks',
  OpportunityLottery: 'Lottery',
  lottery: 'Lottery',
  AccessGrants: 'Consented access',
  Admin: 'Administration',
  Organization: 'Organisations',
  'openapi.json': 'API description',
  // Section 7 lists GTFSRealtimeFeed among the Dashboard calls.
  GTFSRealtimeFeed: 'Dashboard',
  // The operator console.
  Operator: 'Operator console',
};

const SECTION_7 = new Set(Object.values(GROUPS).slice(0, Object.keys(GROUPS).indexOf('ManagerTasks')));

/** The tag of a route: its section-7 group, else the path segment itself (a group added since). */
export function tagOf(url: string): string {
  const segment = url.split('/')[2] ?? '';
  return GROUPS[segment] ?? segment;
}

/** The document's tag list, section 7's order first. */
export function tagList(used: Set<string>): { name: string; description: string }[] {
  const known = [...new Set(Object.values(GROUPS))];
  const names = [...known.filter((t) => used.has(t)), ...[...used].filter((t) => !known.includes(t)).sort()];
  return names.map((name) => ({ name, description: SECTION_7.has(name) ? `Spec section 7: ${name}.` : `${name} (added after spec section 7).` }));
}

const words = (segment: string) =>
  segment
    .replace(/\.[a-z]+$/, (ext) => ` as ${ext.slice(1).toUpperCase()}`)
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .trim();

/** Words that already say what the call does: longer ones may run into the next word ("getuserdetails"). */
const VERB = /^(?:(?:get|fetch|check|list|create|update|save|delete|remove|send|verify|validate|apply|submit|generate|upload|match|mark|approve|decline|revoke|grant|extend|reactivate|deactivate|resend|respond|book|accept|withdraw|schedule|login|logout|register|forget|forgot|reset|impersonate|exit|complete|final|preview|bulk|answer|confirm|assign|resolve|redirect|download)|(?:re|add|set|sign|file|act|request|publish|offer|start)\b)/;

const DEFAULT_VERB: Record<string, string> = { GET: 'Get', POST: 'Submit', PUT: 'Update', DELETE: 'Delete', PATCH: 'Change' };

/** A readable summary from the route's method and last named path segment (e.g. "Get applications"). */
export function summaryOf(method: string, url: string): string {
  const segments = url.split('/').filter((s) => s && s !== 'api');
  const named = [...segments].reverse().find((s) => !s.startsWith(':')) ?? '';
  const owner = segments[0] ?? '';
  const last = segments.at(-1) ?? '';
  let text: string;
  if (last === ':action') text = `act on ${words(named)} (the action named in the path)`;
  else if (named === owner && method === 'GET' && last === owner) text = `list ${words(owner)}`;
  else text = words(named);
  if (!VERB.test(text)) text = `${DEFAULT_VERB[method] ?? method} ${text}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An operationId unique across the document: method and path, camel-cased. */
export function operationIdOf(method: string, url: string): string {
  const parts = url
    .split('/')
    .filter((s) => s && s !== 'api')
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s))
    .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...parts.map((p) => p.charAt(0).toUpperCase() + p.slice(1))].join('');
}

/** What the plugin learnt about a route when it was registered. */
export interface RouteFacts {
  url: string;
  methods: string[];
  /** The roles the route's guard lets through (null: public). */
  roles: readonly Role[] | null;
  hasInput: boolean;
  hasPathParams: boolean;
  paged: boolean;
  rateLimited: boolean;
  /** Answers a document as it is (not in the envelope). */
  raw: boolean;
  /** The content type of a file the route answers as its 200 (not in the envelope); null: the envelope. */
  file: string | null;
  /** Refusal codes of the route's own, by status, beyond those its guard and schemas imply. */
  refusals: Partial<Record<number, readonly string[]>>;
}

const ERROR_CODES = [...Object.keys(MESSAGES), 'validation', 'unknown'];

/** Shared schemas: the envelope, its error data and a page of a list. */
export const COMPONENT_SCHEMAS = {
  Envelope: {
    type: 'object',
    description: 'Every answer of the API (spec section 7): `status` is the HTTP status, `message` a human-readable text, `data` the answer.',
    required: ['status', 'message', 'data'],
    properties: { status: { type: 'integer' }, message: { type: 'string' }, data: {} },
  },
  ErrorData: {
    type: 'object',
    required: ['code'],
    properties: {
      code: { type: 'string', enum: ERROR_CODES, description: 'Stable refusal code (spec section 8); clients translate by it.' },
      issues: { type: 'array', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } } },
    },
  },
  ErrorEnvelope: {
    type: 'object',
    required: ['status', 'message', 'data'],
    properties: { status: { type: 'integer', minimum: 400 }, message: { type: 'string' }, data: { $ref: '#/components/schemas/ErrorData' } },
  },
  Page: {
    type: 'object',
    description: 'One page of a growing list. Pass `nextCursor` as `cursor` for the next page; null at the end.',
    required: ['items', 'nextCursor'],
    properties: { items: { type: 'array', items: {} }, nextCursor: { type: ['string', 'null'] } },
  },
} as const;

export const SECURITY_SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token from POST /api/Account/login (or refresh-token), as `Authorization: Bearer <token>`.' },
} as const;

/**
 * The refusal codes a case (workflow) answers with another status than 409: one table, domain/case.ts.
 * Every other refusal of a case is 409.
 */
export function refusalCodesByStatus(): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const code of ERROR_CODES.filter((c) => c !== 'unknown')) {
    const status = statusOfRefusal(code);
    if (status === 409) continue;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });

/** The answers of a route: success in the envelope, then every refusal status it can answer. */
export function responsesOf(facts: RouteFacts): Record<string, unknown> {
  if (facts.raw) return { 200: { description: 'The document itself (not in the envelope).', content: { 'application/json': { schema: { type: 'object' } } } } };
  const data = facts.paged ? { $ref: '#/components/schemas/Page' } : {};
  const responses: Record<string, unknown> = {
    '2XX': {
      description: facts.paged ? 'Done: one page of the list in `data` (`items`, `nextCursor`).' : 'Done: the answer in `data`.',
      content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data } }] } } },
    },
  };
  const mutating = facts.methods.some((m) => m !== 'GET');
  const cases = refusalCodesByStatus();
  const list = (status: number) => (cases.get(status) ?? []).map((c) => `\`${c}\``).join(', ');
  if (facts.hasInput || mutating) responses[400] = errorResponse('Bad input (`validation`, with `issues` naming each field), or a refusal of the input such as `invalidOtp`.');
  if (facts.roles) {
    responses[401] = errorResponse('`unauthorized`: no valid access token, or its session was ended.');
    responses[403] = errorResponse(`\`forbidden\`: the caller's role is not one of ${facts.roles.join(', ')}, or the household or organisation is not theirs; also ${list(403)}.`);
  }
  if (facts.hasPathParams) responses[404] = errorResponse('`notFound` (or a more precise code): nothing the caller may see has this id.');
  if (mutating) {
    responses[409] = errorResponse('Refused in the current state of the case or record (e.g. `alreadyApplied`, `profileNotSubmitted`, `actionNotAllowedNow`): every case refusal not listed under another status.');
    responses[422] = errorResponse(`The input is refused by a rule: ${list(422)}.`);
    responses[503] = errorResponse('`serviceUnavailable`: the workflow service is unreachable; try again after `Retry-After` seconds.');
  }
  if (facts.rateLimited) responses[429] = errorResponse('`tooManyAttempts` (or `serverBusy` where a password is checked): wait `Retry-After` seconds.');
  if (facts.file) {
    delete responses['2XX'];
    responses[200] = { description: 'The file itself (not in the envelope).', content: { [facts.file]: { schema: { type: 'string', format: 'binary' } } } };
  }
  for (const [status, codes] of Object.entries(facts.refusals)) {
    const own = (codes ?? []).map((c) => `\`${c}\``).join(', ');
    const before = (responses[status] as { description?: string } | undefined)?.description;
    responses[status] = errorResponse(before ? `${before} Also ${own}.` : `${own}${status === '429' ? ' (wait `Retry-After` seconds when it is given)' : ''}.`);
  }
  return responses;
}

/** The description of an operation: who may call it, and the alias note for a method kept for the web app. */
export function descriptionOf(facts: RouteFacts, method: string): string {
  const who = facts.roles ? `Roles: ${[...facts.roles].join(', ')}${facts.roles.length === ROLES.length ? ' (any signed-in user)' : ''}.` : 'Public: no sign-in needed.';
  const alias = method !== facts.methods[0] ? ` Deprecated alias kept for the web app: use ${facts.methods[0]}.` : '';
  const paging = facts.paged ? ' Pages by cursor: pass the answer\'s `nextCursor` as `cursor` (with `limit`) for the next page.' : '';
  return `${who}${paging}${alias}`;
}
