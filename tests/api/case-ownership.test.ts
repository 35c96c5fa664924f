import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Role } from '../../domain';
import { ACCESS_GRANT_TABLE } from '../../domain/access-grant.table';
import { BULK_BATCH_TABLE } from '../../domain/bulk.table';
import { LEASE_UP_INPUTS, OfferUnitBody } from '../../domain/lease-up.inputs';
import { LEASE_UP_TABLE, ManagerActionName } from '../../domain/lease-up.table';
import { LOTTERY_INPUTS, LotteryManagerAction, lotteryWorkflowId } from '../../domain/lottery';
import { LOTTERY_TABLE } from '../../domain/lottery.table';
import { RecertActionBody } from '../../domain/recertification';
import { RECERT_TABLE, RecertManagerActionName, RecertTenantActionName } from '../../domain/recertification.table';
import { RELOCATION_TABLE } from '../../domain/relocation.table';
import { SUPPORT_TICKET_TABLE } from '../../domain/support-ticket.table';
import { seedDemoLottery } from '../../infra/seed-lottery';
import { accessGrantWorkflowId, bulkBatchWorkflowId, leaseUpWorkflowId, recertificationWorkflowId, relocationWorkflowId, supportTicketWorkflowId } from '../../infra/temporal/ids';
import { ensureLotteries } from '../../worker/lotteries';
import { accessGrantMessages } from '../../workflows/access-grant.messages';
import { bulkBatchMessages } from '../../workflows/bulk-batch.messages';
import { leaseUpMessages } from '../../workflows/lease-up.messages';
import { lotteryMessages } from '../../workflows/lottery.messages';
import { recertificationMessages } from '../../workflows/recertification.messages';
import { relocationMessages } from '../../workflows/relocation.messages';
import { supportTicketMessages } from '../../workflows/support-ticket.messages';
import { latestMessage } from '../helpers/identity';
import { makeOrganization, makeUser, organizationId } from '../helpers/ambassador';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';

/**
 * Every action of every case kind, sent by someone the case does not belong to: another household
 * (a tenant of the same organisation, and an applicant of none) for a household's action, a manager
 * of another organisation for a manager's, an ambassador of another organisation for an
 * ambassador's. Each is refused with 403 or 404 in the envelope, and the case's view is the same
 * version afterwards. The list of actions is read from the domain's action tables and each case's
 * routes from the API's route table: an action with no route named here, or a case route under a
 * case kind's prefix that is neither called here nor said to start a case, fails the first test.
 */

type Kind = 'leaseUp' | 'recertification' | 'relocation' | 'accessGrant' | 'supportTicket' | 'lottery' | 'bulk';
type Side = 'household' | 'manager' | 'ambassador';

const TABLES: Record<Kind, Record<string, { by: string; input: z.ZodType }>> = {
  leaseUp: LEASE_UP_TABLE,
  recertification: RECERT_TABLE,
  relocation: RELOCATION_TABLE,
  accessGrant: ACCESS_GRANT_TABLE,
  supportTicket: SUPPORT_TICKET_TABLE,
  lottery: LOTTERY_TABLE,
  bulk: BULK_BATCH_TABLE,
};

/** Who the actor of a table's row is, for ownership: `null` when no one owns what they act on. */
const SIDE_OF: Record<string, Side | null> = {
  applicant: 'household',
  tenant: 'household',
  household: 'household',
  requester: 'household',
  manager: 'manager',
  staff: 'manager',
  ambassador: 'ambassador',
  // Signals of the lease-up cases to their lottery, never a route.
  system: null,
  // An admin may end any grant (spec section 6): there is no other owner to be.
  admin: null,
};

/** One call of a case's route: the route as registered (`METHOD /path/:param`), its parameters and body, from the case's id. */
interface Call {
  route: string;
  params?: (id: string) => Record<string, string>;
  body?: (id: string) => unknown;
}

/** A body the schema accepts: its required fields, each with the least value it takes (JSON Schema from zod). */
function sample(schema: z.ZodType): unknown {
  const fill = (s: Record<string, unknown>): unknown => {
    if (Array.isArray(s.enum)) return s.enum[0];
    if ('const' in s) return s.const;
    if (Array.isArray(s.anyOf)) return fill(s.anyOf[0] as Record<string, unknown>);
    switch (s.type) {
      case 'object': {
        const props = (s.properties ?? {}) as Record<string, Record<string, unknown>>;
        return Object.fromEntries(((s.required ?? []) as string[]).map((k) => [k, fill(props[k]!)]));
      }
      case 'array':
        return Array.from({ length: Number(s.minItems ?? 1) }, () => fill(s.items as Record<string, unknown>));
      case 'string':
        if (s.format === 'uuid') return randomUUID();
        if (s.format === 'date-time') return new Date(Date.now() + 30 * 86_400_000).toISOString();
        if (s.format === 'date') return new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
        return 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
      case 'integer':
      case 'number':
        return Math.max(1, Number(s.minimum ?? 1));
      case 'boolean':
        return true;
      default:
        return null;
    }
  };
  return fill(z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>);
}

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const LU = '/api/LeaseUpApplication';
const RC = '/api/TenantRecertificationStatus';
const RL = '/api/Relocation';
const ST = '/api/SupportTicket';

/** The routes of the actions whose route is not the generic `/:action` of their kind (those are read from the tables below). */
const NAMED: Record<Kind, Record<string, Call[]>> = {
  leaseUp: {
    SubmitProfile: [{ route: 'POST /api/Household/submit-applicant-profile/:id' }],
    SubmitAdditionalDocuments: [{ route: `POST ${LU}/submit-additional-documents/:id`, body: () => ({ documents: [{ item: 'Pay stub', reason: 'Sent by mail' }] }) }],
    ProvideConsentForScreening: [{ route: `POST ${LU}/background-consent/:id/:consent`, params: () => ({ consent: 'true' }) }],
    DenyConsentForScreening: [{ route: `POST ${LU}/background-consent/:id/:consent`, params: () => ({ consent: 'false' }) }],
    // One route books or moves the appointment (the case's state says which).
    ScheduleAppointment: [{ route: `POST ${LU}/schedule-appointment`, body: (id) => ({ applicationId: id, slot: sample(LEASE_UP_INPUTS.ScheduleAppointment.shape.slot) }) }],
    RescheduleAppointment: [{ route: `POST ${LU}/schedule-appointment`, body: (id) => ({ applicationId: id, slot: sample(LEASE_UP_INPUTS.ScheduleAppointment.shape.slot) }) }],
    RespondToUnitOffer: [{ route: `POST ${LU}/unit-offer/respond`, body: (id) => ({ applicationId: id, offerId: 'offer-1', accept: true }) }],
    SignTIC: [{ route: 'PUT /api/Document/applytenantsignaturetotic/:id', body: () => ({ signatureBase64: PNG }) }],
    SignLeaseLetter: [{ route: `POST ${LU}/sign-lease-document/:id`, body: () => ({ signatureBase64: PNG }) }],
    Appeal: [{ route: `POST ${LU}/file-appeal`, body: (id) => ({ applicationId: id, reason: 'Please look again' }) }],
    UpdateInfo: [{ route: `POST ${LU}/update-info/:id`, body: () => ({ householdSize: 2, householdIncome: 41_000 }) }],
    Withdraw: [{ route: `POST ${LU}/withdraw-application/:id` }],
  },
  recertification: {},
  relocation: {
    SubmitProfile: [{ route: `POST ${RL}/submit-profile/:id` }],
    AcceptOffer: [{ route: `POST ${RL}/:id/unit-offers/:offerId/accept`, params: (id) => ({ offerId: `${id}.1` }) }],
    DeclineOffer: [{ route: `POST ${RL}/unit-offers/:offerId/decline`, params: (id) => ({ offerId: `${id}.1` }) }],
    BookSlot: [{ route: `POST ${RL}/book-slot`, body: (id) => ({ relocationId: id, slotId: 'slot-1' }) }],
    OfferTemporaryUnit: [{ route: `POST ${RL}/manager/:id/offer-unit`, body: () => ({ unitNumber: '9Z', bedroomType: '2 bedrooms', address: '1 Elsewhere St' }) }],
    ConfirmMove: [{ route: `POST ${RL}/manager/:id/confirm-move` }],
    ExtendRelocation: [{ route: `POST ${RL}/manager/:id/extend`, body: () => ({ until: sample(z.string().date()), reason: 'Works are late' }) }],
    ConfirmReturn: [{ route: `POST ${RL}/manager/:id/confirm-return` }],
  },
  accessGrant: {
    Extend: [{ route: 'POST /api/AccessGrants/:grantId/extend' }],
    Revoke: [{ route: 'POST /api/AccessGrants/:grantId/revoke' }],
    Withdraw: [{ route: 'POST /api/Ambassador/access-grants/:grantId/revoke' }],
  },
  supportTicket: {
    Reply: [{ route: `POST ${ST}/AddReplyToTicket`, body: (id) => ({ ticketId: id, message: 'Not mine to answer' }) }],
    Answer: [{ route: `POST ${ST}/AddReplyToTicket`, body: (id) => ({ ticketId: id, message: 'Not mine to answer' }) }],
    Assign: [{ route: `POST ${ST}/:id/assign`, body: () => ({ assigneeUserId: randomUUID() }) }],
    Resolve: [{ route: `POST ${ST}/:id/resolve`, body: () => ({ note: 'Closed by a stranger' }) }],
  },
  // A paper form is entered with its scan (multipart); a stranger is refused before the body is read.
  lottery: { EnterPaperApplication: [{ route: 'POST /api/OpportunityLottery/:opportunityId/paper-applications' }] },
  bulk: { Cancel: [{ route: 'POST /api/BulkActions/:id/cancel' }] },
};

/** The kinds whose actions of one side share a route naming the action (`/:action`): every action its enum admits. */
const GENERIC: { kind: Kind; route: string; actions: readonly string[]; body: (action: string) => unknown }[] = [
  { kind: 'leaseUp', route: `POST ${LU}/updateleaseapplicationstatus/:id/:action`, actions: ManagerActionName.options, body: (a) => sample(a === 'OfferUnit' ? OfferUnitBody : LEASE_UP_INPUTS[a as keyof typeof LEASE_UP_INPUTS]) },
  { kind: 'recertification', route: `POST ${RC}/:caseId/:action`, actions: RecertTenantActionName.options, body: () => sample(RecertActionBody) },
  { kind: 'recertification', route: `POST ${RC}/manager/:caseId/:action`, actions: RecertManagerActionName.options, body: () => sample(RecertActionBody) },
  { kind: 'lottery', route: 'POST /api/OpportunityLottery/:opportunityId/:action', actions: LotteryManagerAction.exclude(['EnterPaperApplication']).options, body: (a) => sample(LOTTERY_INPUTS[a as keyof typeof LOTTERY_INPUTS]) },
];

function callsOf(kind: Kind, action: string): Call[] {
  const named = NAMED[kind][action] ?? [];
  const generic = GENERIC.filter((g) => g.kind === kind && g.actions.includes(action)).map((g): Call => ({ route: g.route, params: () => ({ action }), body: () => g.body(action) }));
  return [...named, ...generic];
}

/** The other calls on one case (reads, and a pending grant's answer): another household or organisation gets nothing either. */
const READS: Record<Kind, { side: Side; call: Call }[]> = {
  leaseUp: [
    ...[`GET ${LU}/getDetailsById/:id`, `GET ${LU}/timeline/:id`].map((route) => ({ side: 'household' as const, call: { route } })),
    { side: 'household', call: { route: `GET ${LU}/letter/:id/:kind`, params: () => ({ kind: 'tic' }) } },
    { side: 'household', call: { route: `GET ${LU}/getAvailableAppointmentSlots` } },
    { side: 'manager', call: { route: `GET ${LU}/offerable-units/:id` } },
    { side: 'manager', call: { route: 'GET /api/CaseFile/:kind/:caseId', params: () => ({ kind: 'lease-up' }) } },
  ],
  recertification: [
    { side: 'household', call: { route: `GET ${RC}/case/:caseId` } },
    // Another household's TIC, as the page shows it.
    { side: 'household', call: { route: `GET ${RC}/case/:caseId/tic` } },
    { side: 'manager', call: { route: 'GET /api/CaseFile/:kind/:caseId', params: () => ({ kind: 'recertification' }) } },
  ],
  relocation: [
    { side: 'household', call: { route: `GET ${RL}/case/:id` } },
    { side: 'household', call: { route: `GET ${RL}/slots/:id` } },
    { side: 'manager', call: { route: 'GET /api/CaseFile/:kind/:caseId', params: () => ({ kind: 'relocation' }) } },
  ],
  // Granting is answering a request made to one household: no other household may.
  accessGrant: [{ side: 'household', call: { route: 'POST /api/AccessGrants/:grantId/grant' } }],
  supportTicket: [{ side: 'household', call: { route: `GET ${ST}/GetSupportTicketById/:id` } }],
  lottery: [
    { side: 'manager', call: { route: 'GET /api/OpportunityLottery/:opportunityId' } },
    { side: 'manager', call: { route: 'GET /api/OpportunityLottery/:opportunityId/ranked' } },
    { side: 'manager', call: { route: 'GET /api/OpportunityLottery/:opportunityId/ranked.csv' } },
    { side: 'manager', call: { route: 'GET /api/OpportunityLottery/:opportunityId/duplicates' } },
  ],
  bulk: [
    { side: 'manager', call: { route: 'GET /api/BulkActions/:id' } },
    { side: 'manager', call: { route: 'GET /api/BulkActions/:id/results' } },
  ],
};

/** Routes under a case kind's prefix that act on no existing case of someone else's: each says why. */
const NOT_ON_A_CASE: Record<string, string> = {
  [`POST ${LU}/apply`]: 'starts a case of the caller',
  [`GET ${LU}/getApplications`]: "the caller's own list",
  [`GET ${LU}/counts`]: "the caller's own counts",
  [`GET ${LU}/check-application-status/:opportunityId/:userId`]: 'names a user, checked against the caller (tests/api/lease-up-routes.test.ts)',
  [`GET ${RC}/status`]: "the caller's own case",
  [`POST ${RC}/interim`]: "starts a case of the caller's household",
  [`POST ${RC}/manager/annual/:householdId`]: "starts a case of a household of the manager's organisation (checked in tests/api/recertification.test.ts)",
  [`POST ${RC}/manager/interim/:householdId`]: "starts a case of a household of the manager's organisation (checked in tests/api/recertification.test.ts)",
  [`GET ${RC}/manager/households`]: "the manager's own organisation's households (another organisation's manager sees none: tests/api/recertification.test.ts)",
  [`GET ${RL}`]: "the caller's own relocation or organisation's list",
  [`GET ${RL}/manager/households`]: "the manager's own organisation",
  [`POST ${RL}/manager/start`]: "starts a case of a household of the manager's organisation",
  'GET /api/AccessGrants': "the caller's own grants",
  'GET /api/AccessGrants/audit': "the caller's own audit",
  [`POST ${ST}/CreateSupportTicket`]: 'starts a case of the caller',
  [`GET ${ST}/GetSupportTickets`]: "the caller's own tickets or organisation's queue",
  [`GET ${ST}/events`]: 'a stream naming only the cases the caller may see (tests/api/support-ticket-events.test.ts)',
  [`GET ${ST}/:id/attachments/:attachmentId`]: 'a file of a ticket, checked per ticket (tests/api/support-ticket-attachments.test.ts)',
  'POST /api/BulkActions': "starts a batch over the manager's own organisation's cases",
  'GET /api/BulkActions': "the manager's own organisation's batches",
  'GET /api/CaseFile/:kind/:caseId/documents/:id/file': 'a file of a case file, checked as the case file is (tests/api/case-file.test.ts)',
  'POST /api/CaseFile/:kind/:caseId/documents/:id/review': 'a document decision of a case file, checked as the case file is (tests/api/case-file.test.ts)',
};

/** The prefixes under which every route is a case's: new routes there must be called here or listed above. */
const CASE_PREFIXES = [LU, RC, RL, ST, '/api/AccessGrants', '/api/Ambassador/access-grants', '/api/OpportunityLottery', '/api/BulkActions', '/api/CaseFile', '/api/Document/applytenantsignaturetotic', '/api/Household/submit-applicant-profile'];

/** Which parameter of a route holds the case's id. */
const CASE_PARAMS = ['id', 'caseId', 'grantId', 'opportunityId'];

function request(call: Call, id: string): { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: unknown } {
  const [method, pattern] = call.route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
  const params = { ...Object.fromEntries(CASE_PARAMS.map((p) => [p, id])), ...(call.params?.(id) ?? {}) };
  let url = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    if (!(name in params)) throw new Error(`no value for :${name} of ${call.route}`);
    return encodeURIComponent(params[name]!);
  });
  // A GET naming its case in the query (the appointment slots).
  if (method === 'GET' && pattern.endsWith('getAvailableAppointmentSlots')) url += `?applicationId=${id}`;
  const body = call.body?.(id);
  return { method, url, ...(method === 'GET' ? {} : { payload: body ?? {} }) };
}

describe('a case answers only to whom it belongs, for every action of every kind', () => {
  let stack: Stack;
  const owners = {} as Record<'applicant' | 'tenant' | 'manager' | 'ambassador', { authorization: string; userId: string }>;
  const strangers = {} as Record<Side, { who: string; authorization: string }[]>;
  const cases = {} as Record<Kind, string>;
  /** The version of the case's view, as its workflow holds it (the read model follows it). */
  const versions: Record<Kind, (id: string) => Promise<number>> = {
    leaseUp: async (id) => (await stack.temporal.workflow.getHandle(leaseUpWorkflowId(id)).query(leaseUpMessages.getView)).version,
    recertification: async (id) => (await stack.temporal.workflow.getHandle(recertificationWorkflowId(id)).query(recertificationMessages.getView)).version,
    relocation: async (id) => (await stack.temporal.workflow.getHandle(relocationWorkflowId(id)).query(relocationMessages.getView)).version,
    accessGrant: async (id) => (await stack.temporal.workflow.getHandle(accessGrantWorkflowId(id)).query(accessGrantMessages.getView)).version,
    supportTicket: async (id) => (await stack.temporal.workflow.getHandle(supportTicketWorkflowId(id)).query(supportTicketMessages.getView)).version,
    lottery: async (id) => (await stack.temporal.workflow.getHandle(lotteryWorkflowId(id)).query(lotteryMessages.getView)).version,
    bulk: async (id) => (await stack.temporal.workflow.getHandle(bulkBatchWorkflowId(id)).query(bulkBatchMessages.getView)).version,
  };

  beforeAll(async () => {
    stack = await startStack();
    const post = async (url: string, who: { authorization: string }, payload: object = {}) => {
      const r = await stack.app.inject({ method: 'POST', url, headers: { authorization: who.authorization }, payload });
      if (r.statusCode >= 300) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
      return r.json().data;
    };
    const tokenOf = (userId: string, role: Role) => ({ authorization: `Bearer ${stack.app.signAccessToken({ sub: userId, role }).token}`, userId });
    [owners.applicant, owners.tenant, owners.manager, owners.ambassador] = await Promise.all([signIn(stack.app, 'User'), signIn(stack.app, 'Tenant'), signIn(stack.app, 'Manager'), signIn(stack.app, 'HousingAmbassador')]);
    const riverside = await organizationId(stack.db);

    // The strangers: a tenant household of the same organisation, an applicant household of none,
    // a manager of another organisation, an ambassador of another ambassador organisation.
    const neighbour = await makeUser(stack.db, { role: 'Tenant', organizationId: riverside, household: true });
    const home = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', neighbour.userId).executeTakeFirstOrThrow();
    await stack.db.insertInto('tenancies').values({ household_id: home.id, organization_id: riverside, building_name: 'Riverside Commons', address: '410 Riverside Dr, New York, NY 10025', unit_number: '5C', bedrooms: '1 bedroom', lease_start: '2025-01-01' }).execute();
    const outsider = await makeUser(stack.db, { role: 'User', organizationId: null, household: true });
    const elsewhere = await makeOrganization(stack.db, 'Elsewhere Housing');
    const otherManager = await makeUser(stack.db, { role: 'Manager', organizationId: elsewhere });
    const advocates = await makeOrganization(stack.db, 'Elsewhere Advocates', 'ambassador_organization');
    const otherAmbassador = await makeUser(stack.db, { role: 'HousingAmbassador', organizationId: advocates });
    strangers.household = [{ who: 'a tenant household of the same organisation', ...tokenOf(neighbour.userId, 'Tenant') }, { who: 'an applicant household', ...tokenOf(outsider.userId, 'User') }];
    strangers.manager = [{ who: 'a manager of another organisation', ...tokenOf(otherManager.userId, 'Manager') }];
    strangers.ambassador = [{ who: 'an ambassador of another organisation', ...tokenOf(otherAmbassador.userId, 'HousingAmbassador') }];

    // One case of each kind, belonging to the demo households and the demo organisation.
    const opportunities = (await stack.app.inject({ url: '/api/Opportunity/published-opportunities' })).json().data as { id: string; name: string }[];
    const firstCome = opportunities.find((o) => o.name === 'Riverside Commons')!;
    cases.leaseUp = (await post(`${LU}/apply`, owners.applicant, { opportunityId: firstCome.id, householdSize: 2, householdIncome: 52_000, agreeToTerms: true })).applicationId;
    cases.recertification = (await stack.app.inject({ url: `${RC}/status`, headers: { authorization: owners.tenant.authorization } })).json().data.caseId;
    const tenantHome = await stack.db.selectFrom('households').select('id').where('head_user_id', '=', owners.tenant.userId).executeTakeFirstOrThrow();
    cases.relocation = (await post(`${RL}/manager/start`, owners.manager, { householdId: tenantHome.id, reason: 'Boiler replacement' })).relocationId;
    cases.supportTicket = (await post(`${ST}/CreateSupportTicket`, owners.tenant, { category: 'other', subject: 'Heat', message: 'No heat since Monday.' })).ticketId;
    const resident = await makeUser(stack.db, { role: 'User', organizationId: riverside, household: true });
    await post('/api/Ambassador/access-requests', owners.ambassador, { userId: resident.userId, channel: 'email' });
    const code = String((await latestMessage(stack.db, resident.userId, 'access-request'))!.params.code);
    cases.accessGrant = (await post('/api/Ambassador/access-requests/grant-by-code', owners.ambassador, { userId: resident.userId, code })).grantId;
    const org = await stack.db.selectFrom('users').select('organization_id').where('id', '=', owners.manager.userId).executeTakeFirstOrThrow();
    await seedDemoLottery(stack.db, org.organization_id!, owners.applicant.userId, new Date());
    cases.lottery = (await stack.db.selectFrom('opportunities').select('id').where('name', '=', 'Mott Haven Lottery').executeTakeFirstOrThrow()).id;
    await ensureLotteries(stack.db, stack.temporal, stack.config.TEMPORAL_TASK_QUEUE);
    cases.bulk = (await post('/api/BulkActions', owners.manager, { action: 'sendReminder', note: 'A reminder', selection: { applicationIds: [cases.leaseUp] } })).batchId;

    // Cases that move on their own settle first: the batch finishes (its reminder changes the
    // application), the lottery's passed deadline closes it.
    await eventually(async () => (await stack.temporal.workflow.getHandle(bulkBatchWorkflowId(cases.bulk)).query(bulkBatchMessages.getView)).status === 'completed', 60_000, 'the bulk batch completed');
    await eventually(async () => (await stack.temporal.workflow.getHandle(lotteryWorkflowId(cases.lottery)).query(lotteryMessages.getView)).stage !== 'accepting', 60_000, 'the lottery closed for applications');
    for (const [kind, id] of Object.entries(cases)) expect(id, kind).toMatch(/^[0-9a-f-]{36}$/);
  }, 240_000);
  afterAll(() => stack?.close());

  it('every action of every table has a route here, and every case route is called here or says why not', () => {
    const missing: string[] = [];
    for (const [kind, table] of Object.entries(TABLES) as [Kind, (typeof TABLES)[Kind]][]) {
      for (const [action, row] of Object.entries(table)) {
        if (!(row.by in SIDE_OF)) missing.push(`${kind}.${action}: actor '${row.by}' has no side here`);
        else if (SIDE_OF[row.by] && callsOf(kind, action).length === 0) missing.push(`${kind}.${action}: no route`);
      }
    }
    expect(missing, 'actions of the tables with no route to test').toEqual([]);

    const called = new Set([...(Object.keys(TABLES) as Kind[]).flatMap((k) => Object.keys(TABLES[k]).flatMap((a) => callsOf(k, a).map((c) => c.route))), ...Object.values(READS).flatMap((reads) => reads.map((r) => r.call.route))]);
    // A prefix's own route is registered with and without its trailing slash: one route.
    const routes = [...new Set(stack.app.routeList.filter((r) => r.method !== 'OPTIONS' && r.method !== 'HEAD').map((r) => `${r.method} ${r.url.replace(/(.)\/$/, '$1')}`))];
    const unaccounted = routes.filter((r) => CASE_PREFIXES.some((p) => r.split(' ')[1]!.startsWith(p)) && !called.has(r) && !(r in NOT_ON_A_CASE));
    expect(unaccounted, 'case routes neither called by this test nor said to act on no one else\'s case').toEqual([]);
    for (const route of called) expect(routes, `${route} is served`).toContain(route);
  });

  for (const [kind, table] of Object.entries(TABLES) as [Kind, (typeof TABLES)[Kind]][]) {
    it(`${kind}: each action sent by a stranger is refused with 403 or 404, and the case stays the same version`, async () => {
      const failures: string[] = [];
      const id = cases[kind];
      const attempts = [
        ...Object.entries(table).flatMap(([action, row]) => {
          const side = SIDE_OF[row.by];
          return side ? callsOf(kind, action).map((call) => ({ what: action, side, call })) : [];
        }),
        ...READS[kind].map((r) => ({ what: r.call.route, side: r.side, call: r.call })),
      ];
      for (const { what, side, call } of attempts) {
        for (const stranger of strangers[side]) {
          const before = await versions[kind](id);
          const r = await stack.app.inject({ ...request(call, id), headers: { authorization: stranger.authorization, 'content-type': 'application/json' } } as never);
          const after = await versions[kind](id);
          const body = (() => {
            try {
              return r.json();
            } catch {
              return null;
            }
          })();
          const refused = (r.statusCode === 403 || r.statusCode === 404) && body?.status === r.statusCode && typeof body?.message === 'string';
          if (!refused) failures.push(`${what} (${call.route}) by ${stranger.who}: ${r.statusCode} ${r.body.slice(0, 160)}`);
          if (after !== before) failures.push(`${what} (${call.route}) by ${stranger.who}: the case moved from version ${before} to ${after}`);
        }
      }
      expect(attempts.length).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    }, 180_000);
  }
});
