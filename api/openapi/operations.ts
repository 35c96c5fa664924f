import { z } from 'zod';
import { MESSAGES, ROLES, UploadFields, statusOfRefusal, type MessageCode, type Role } from '../../domain';

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
  Waitlist: 'Lottery',
  AccessGrants: 'Consented access',
  Admin: 'Administration',
  Organization: 'Organisations',
  'openapi.json': 'API description',
  // Section 7 lists GTFSRealtimeFeed among the Dashboard calls.
  GTFSRealtimeFeed: 'Dashboard',
  // The operator console.
  Operator: 'Operator console',
  // Listing alerts.
  ListingAlerts: 'Listing alerts',
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
  /** Its query or body names a row by id (a uuid), which may not be found. */
  refersById: boolean;
  /** Answers a document as it is (not in the envelope). */
  raw: boolean;
  /** What the route declares beyond what is derived (DECLARED below, or the route's `config.openapi`). */
  declared: RouteAnswers;
}

/**
 * What a route answers that its URL, guard and schemas do not tell: statuses of its own (a 410 for
 * a spent link) and the media types of a 2xx that is not the JSON envelope (a file, a stream).
 * A route declares them in `config: { openapi: { ... } }`, or they are listed in DECLARED.
 */
export interface RouteAnswers {
  statuses?: Record<number, string>;
  /** Media types of the 2xx answer in place of the JSON envelope. */
  produces?: readonly string[];
  /** Refusal codes of the route's own, by status, added to what that status already says. */
  refusals?: Partial<Record<number, readonly MessageCode[]>>;
  /** The body is multipart/form-data (read by the route, not by a schema): its text fields, and file parts under `file`. */
  multipart?: { fields: z.ZodType; files: 'required' | 'optional' };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: RouteAnswers;
  }
}

const FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/heic', 'image/tiff'] as const;
const EVENT_STREAM = ['text/event-stream'] as const;
const PDF = ['application/pdf'] as const;
/** One event of a stream, as a reader parses it: its fields (`data` a JSON text). */
const SSE_EVENT = { type: 'object', properties: { event: { type: 'string' }, data: { type: 'string' }, id: { type: 'string' }, retry: { type: 'integer' } } };
/** The SMS provider's webhooks exist only when a provider is configured (SMS_PROVIDER=twilio). */
const SMS_OFF = '`notFound`: no SMS provider is configured (SMS_PROVIDER=file), so there is no webhook.';
const LINK_SPENT = { 410: '`linkExpired`: the link was used, replaced or has expired.' };

/** The answers of routes that are not in the envelope or have statuses of their own, by `METHOD url` as registered. */
export const DECLARED: Record<string, RouteAnswers> = {
  'GET /api/Chat/events': { produces: EVENT_STREAM },
  'GET /api/SupportTicket/events': { produces: EVENT_STREAM },
  'GET /api/Household/my-data/export': { produces: ['application/zip'] },
  'GET /api/OpportunityLottery/:opportunityId/ranked.csv': { produces: ['text/csv'] },
  'GET /api/LeaseUpApplication/letter/:id/:kind': { produces: PDF },
  'GET /api/Opportunity/:id/paper-application': { produces: PDF },
  'GET /api/Opportunity/:id/paper-application/:language': { produces: PDF },
  'GET /api/PrintQueue/:letterId/pdf': { produces: PDF },
  'GET /api/Document/Download/:id': { produces: FILE_TYPES },
  'GET /api/Document/shared/:token': { produces: FILE_TYPES },
  'GET /api/CaseFile/:kind/:caseId/documents/:id/file': { produces: FILE_TYPES },
  'GET /api/SupportTicket/:id/attachments/:attachmentId': { produces: FILE_TYPES },
  'POST /api/Sms/inbound': { produces: ['text/xml'], statuses: { 404: SMS_OFF } },
  'POST /api/Sms/status': { statuses: { 404: SMS_OFF } },
  'POST /api/Document/UploadDocument': { multipart: { fields: UploadFields, files: 'required' } },
  'POST /api/Document/BulkUpload': { multipart: { fields: UploadFields, files: 'required' } },
  'POST /api/Document/UploadFilesToBlob': { multipart: { fields: UploadFields, files: 'required' } },
  'POST /api/ChatbotBridge/upload-document': { multipart: { fields: UploadFields.extend({ organizationId: z.uuid() }), files: 'required' } },
  'POST /api/intake/document': { multipart: { fields: z.object({ payDates: z.string().max(300).optional() }), files: 'required' } },
  'GET /api/Account/check-reset-token/:x': { statuses: LINK_SPENT },
  'POST /api/Account/refresh-token': { statuses: { 401: '`refreshFailed`: the refresh token is unknown, spent or its session ended.' } },
  'POST /api/ProfileMatch/MatchProfile': { statuses: { 404: '`profileMatchNotFound`: no resident of the list has these details.' } },
  'POST /api/ProfileMatch/LeaseUpMatchProfile': { statuses: { 404: '`profileMatchNotFound`: no resident of the list has these details.' } },
  'POST /api/Account/reset-password': { statuses: LINK_SPENT },
};

/** What DECLARED and the route's own config say, merged (the route's config wins). */
export function declaredAnswers(method: string, url: string, config: RouteAnswers | undefined): RouteAnswers {
  const listed = DECLARED[`${method} ${url}`] ?? {};
  return {
    statuses: { ...listed.statuses, ...config?.statuses },
    produces: config?.produces ?? listed.produces,
    refusals: { ...listed.refusals, ...config?.refusals },
    multipart: config?.multipart ?? listed.multipart,
  };
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

/**
 * The answers of a route: success in the envelope (or the media types it declares), then every
 * refusal status it can answer: those of the shared plugins, read from the route's facts (the
 * envelope's 400 for a malformed URL or input, the router's 414, the body parser's 413 and 415,
 * the guard's 401 and 403, the rate limiter's 429), those of the cases, and any it declares.
 */
export function responsesOf(facts: RouteFacts): Record<string, unknown> {
  if (facts.raw) return { 200: { description: 'The document itself (not in the envelope).', content: { 'application/json': { schema: { type: 'object' } } } } };
  const data = facts.paged ? { $ref: '#/components/schemas/Page' } : {};
  const produces = facts.declared.produces;
  const inEnvelope = { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data } }] } } };
  const responses: Record<string, unknown> = {
    '2XX': produces?.length
      ? { description: `Done: the ${produces.includes('text/event-stream') ? 'event stream' : 'file'} itself (not in the envelope).`, content: Object.fromEntries(produces.map((type) => [type, { schema: type === 'text/event-stream' ? SSE_EVENT : type.startsWith('text/') ? { type: 'string' } : { type: 'string', contentMediaType: type } }])) }
      : {
          description: facts.paged ? 'Done: one page of the list in `data` (`items`, `nextCursor`).' : 'Done: the answer in `data`.',
          content: inEnvelope,
        },
  };
  const mutating = facts.methods.some((m) => m !== 'GET');
  const cases = refusalCodesByStatus();
  const list = (status: number) => (cases.get(status) ?? []).map((c) => `\`${c}\``).join(', ');
  responses[400] = errorResponse(
    facts.hasInput || mutating
      ? 'Bad input (`validation`, with `issues` naming each field), or a refusal of the input such as `invalidOtp`; also a malformed address.'
      : '`validation`: a malformed address (such as a broken percent-encoding).',
  );
  if (facts.roles) {
    responses[401] = errorResponse('`unauthorized`: no valid access token, or its session was ended.');
    responses[403] = errorResponse(`\`forbidden\`: the caller's role is not one of ${facts.roles.join(', ')}, or the household or organisation is not theirs; also ${list(403)}.`);
  }
  if (facts.hasPathParams || facts.refersById || facts.roles) responses[404] = errorResponse('`notFound` (or a more precise code): nothing the caller may see has this id, or the caller has no such record yet.');
  if (mutating) {
    responses[409] = errorResponse('Refused in the current state of the case or record (e.g. `alreadyApplied`, `profileNotSubmitted`, `actionNotAllowedNow`): every case refusal not listed under another status.');
    responses[413] = errorResponse('The body is over the size limit.');
    responses[415] = errorResponse('The body is not of a media type this operation reads (JSON, or multipart for uploads).');
    responses[422] = errorResponse(`The input is refused by a rule: ${list(422)}.`);
    responses[503] = errorResponse('`serviceUnavailable`: the workflow service is unreachable; try again after `Retry-After` seconds.');
  }
  if (facts.hasPathParams) responses[414] = errorResponse('`validation`: a path segment is longer than the router reads (100 characters).');
  if (facts.rateLimited) responses[429] = errorResponse('`tooManyAttempts` (or `serverBusy` where a password is checked): wait `Retry-After` seconds.');
  // A declared success status (201, 202) answers in the envelope with the data, as the 2XX does; any other is a refusal.
  const success = (description: string) => ({ description, content: inEnvelope });
  for (const [status, description] of Object.entries(facts.declared.statuses ?? {})) responses[status] = Number(status) < 300 ? success(description) : errorResponse(description);
  for (const [status, codes] of Object.entries(facts.declared.refusals ?? {})) {
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
