import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../domain';
import { signIn, startStack, type Stack } from '../helpers/stack';

/** Routes anyone may call (spec section 2 "no role needed" pages and the public opportunity pages). */
const PUBLIC = [
  /^\/$/, /^\/index\.html(\.gz|\.br)?$/, /^\/assets\//, /^\/healthz$/, /^\/readyz$/,
  /^\/api\/Account\/(login|register|send-otp|verify-otp|verify-email|senduserregisterotp|verifyuserregisterotp|login-with-code|send-login-code|refresh-token|forget-password|reset-password|check-reset-token\/:x|emailverified\/:x|forgot-username\/:x)$/,
  /^\/api\/ProfileMatch\//,
  /^\/api\/Opportunity\/(published-opportunities|filtered-opportunities|:id|:id\/paper-application|:id\/paper-application\/:language)$/,
  // Published lottery results, by log number, without names.
  /^\/api\/lottery\/:opportunityId\/(results|invitation-log)$/,
  // The notification redirect log (people clicking a link are often signed out) and a
  // signed document link (the signature is the permission).
  /^\/api\/redirect\/redirectToDestination$/, /^\/api\/Document\/shared\/:token$/,
  // The OpenAPI document and its browsable page.
  /^\/api\/openapi\.json$/, /^\/api-docs(\/.*)?$/,
  // The FAQ is public help (the help page and the new-ticket form's suggestions).
  /^\/api\/FaqCategory\/?$/, /^\/api\/FaqCategory\/suggestions$/,
  // The SMS provider's webhooks: its signature over the request is the permission (403 without).
  /^\/api\/Sms\/(status|inbound)$/,
  // Listing alerts of signed-out visitors: subscribe, and the token of a link is the permission.
  /^\/api\/ListingAlerts\/(subscribe|confirm|unsubscribe|one-click)$/,
  // The how-to videos and their captions (/play-video is a no-role page).
  /^\/videos\//,
  // A waitlist notice's link works signed out: its token (in the body) is the permission, for one application.
  /^\/api\/Waitlist\/link(\/ConfirmInterest|\/RestorePlace)?$/,
];

/**
 * Spec section 6 as a table for the routes whose roles the spec or the design fixes; every other
 * guarded route is still walked below with the roles its guard declares.
 */
const EXPECTED: Record<string, readonly Role[]> = {
  'POST /api/Account/logout': ROLES,
  'POST /api/Account/impersonate/:userId': ['HousingAmbassador'],
  'POST /api/Account/managers/:managerId/impersonate/:userId': ['Manager'],
  'POST /api/Account/exit-impersonation': ROLES,
  'GET /api/UserProfile/Profile': ROLES,
  'PUT /api/UserProfile/Profile/Signature': ROLES,
  'GET /api/UserProfile/settings': ROLES,
  'POST /api/Signature/generateotpforchangesignrature': ROLES,
  'POST /api/LeaseUpApplication/apply': ['User', 'Tenant'],
  'GET /api/Waitlist/mine': ['User', 'Tenant'],
  'POST /api/Waitlist/mine/:applicationId/ConfirmInterest': ['User', 'Tenant'],
  'GET /api/Waitlist/:opportunityId': ['Manager'],
  'POST /api/Waitlist/:opportunityId/:applicationId/RestorePlace': ['Manager'],
  'GET /api/LeaseUpApplication/getApplications': ['User', 'Tenant', 'Manager'],
  'GET /api/ManagerTasks': ['Manager'],
  'POST /codec/decode': ['Admin'],
  // Ambassadors, organisations and consented access: spec section 7's four Ambassador
  // calls, then the paths chosen here.
  'GET /api/Ambassador/getambessdordashboard/:ambassadorId': ['HousingAmbassador'],
  'GET /api/Ambassador/getambessdorUsers/:ambassadorId': ['HousingAmbassador'],
  'GET /api/Ambassador/getambessdororglist/:ambassadorId': ['HousingAmbassador'],
  'POST /api/Ambassador/saveambassadororgmapping/:ambassadorId/:organizationId': ['Admin'],
  'DELETE /api/Ambassador/saveambassadororgmapping/:ambassadorId/:organizationId': ['Admin'],
  'POST /api/Ambassador/users': ['HousingAmbassador'],
  'GET /api/Ambassador/:ambassadorId/users/:userId/dashboard': ['HousingAmbassador'],
  'POST /api/Ambassador/access-requests': ['HousingAmbassador'],
  'POST /api/Ambassador/access-requests/grant-by-code': ['HousingAmbassador'],
  'POST /api/Ambassador/access-grants/:grantId/revoke': ['HousingAmbassador'],
  'GET /api/AccessGrants': ['User', 'Tenant'],
  'GET /api/AccessGrants/audit': ['User', 'Tenant'],
  'POST /api/AccessGrants/:grantId/grant': ['User', 'Tenant'],
  'POST /api/AccessGrants/:grantId/revoke': ['User', 'Tenant'],
  'POST /api/AccessGrants/:grantId/extend': ['User', 'Tenant'],
  'GET /api/Admin/users': ['Admin'],
  'PUT /api/Admin/users/:userId/role': ['Admin'],
  'POST /api/Admin/users/:userId/deactivate': ['Admin'],
  'POST /api/Admin/users/:userId/reactivate': ['Admin'],
  'POST /api/Admin/users/:userId/resend-verification': ['Admin'],
  'GET /api/Admin/users/:userId/audit': ['Admin'],
  'GET /api/Admin/users/:userId/access-grants': ['Admin'],
  'POST /api/Admin/access-grants/:grantId/revoke': ['Admin'],
  'GET /api/Admin/impersonation-audit': ['Admin'],
  'GET /api/Admin/organizations': ['Admin'],
  'POST /api/Admin/organizations': ['Admin'],
  'GET /api/Admin/organizations/requests': ['Admin'],
  'POST /api/Admin/organizations/requests/:requestId/approve': ['Admin'],
  'POST /api/Admin/organizations/requests/:requestId/decline': ['Admin'],
  'GET /api/Admin/organizations/:organizationId': ['Admin'],
  'PUT /api/Admin/organizations/:organizationId': ['Admin'],
  'GET /api/Admin/organizations/:organizationId/members': ['Admin'],
  'POST /api/Admin/organizations/:organizationId/members/:userId': ['Admin'],
  'DELETE /api/Admin/organizations/:organizationId/members/:userId': ['Admin'],
  'GET /api/Organization/mine': ['Manager', 'HousingAmbassador'],
  'GET /api/Organization/directory': ['Manager', 'HousingAmbassador'],
  'POST /api/Organization/apply': ['Manager', 'HousingAmbassador'],
  // The lottery: its organisation's managers only.
  'GET /api/OpportunityLottery/:opportunityId': ['Manager'],
  'GET /api/OpportunityLottery/:opportunityId/ranked': ['Manager'],
  'GET /api/OpportunityLottery/:opportunityId/ranked.csv': ['Manager'],
  'POST /api/OpportunityLottery/:opportunityId/:action': ['Manager'],
  // The manager's case file: its organisation's managers only.
  'GET /api/CaseFile/:kind/:caseId': ['Manager'],
  'GET /api/CaseFile/:kind/:caseId/documents/:id/file': ['Manager'],
  'POST /api/CaseFile/:kind/:caseId/documents/:id/review': ['Manager'],
  // The FAQ: read by anyone (PUBLIC above), changed by admins only.
  'POST /api/FaqCategory': ['Admin'],
  'PUT /api/FaqCategory/:id': ['Admin'],
  'DELETE /api/FaqCategory/:id': ['Admin'],
  'POST /api/FaqCategory/:id/questions': ['Admin'],
  'PUT /api/FaqCategory/questions/:questionId': ['Admin'],
  'DELETE /api/FaqCategory/questions/:questionId': ['Admin'],
  // Live chat: the two sides of a conversation.
  'GET /api/Chat/events': ['User', 'Tenant', 'Manager'],
  // A document sent in a conversation lands in the household's My Documents.
  'POST /api/ChatbotBridge/upload-document': ['User', 'Tenant'],
  // Bulk actions from the inbox: its organisation's managers only.
  'POST /api/BulkActions': ['Manager'],
  'GET /api/BulkActions': ['Manager'],
  'GET /api/BulkActions/:id': ['Manager'],
  'GET /api/BulkActions/:id/results': ['Manager'],
  'POST /api/BulkActions/:id/cancel': ['Manager'],
  // Support tickets: an attachment is downloaded by the ticket's requester or staff (each
  // ticket decides which: tests/api/support-ticket-attachments.test.ts); live ticket pages for every
  // side of a ticket (requester, its organisation's managers, admins).
  'GET /api/SupportTicket/:id/attachments/:attachmentId': ROLES,
  'GET /api/SupportTicket/events': ROLES,
  // The dashboard's transit feed: any signed-in user; the data is the MTA's, public.
  'GET /api/GTFSRealtimeFeed/:feedId/:stopId': ROLES,
  // Figures read from statements and pay stubs: asked for and confirmed by the household,
  // read by it and its organisation's managers.
  'POST /api/v1/account-details': ['User', 'Tenant'],
  'GET /api/v1/account-details': ['User', 'Tenant', 'Manager'],
  'GET /api/HouseholdAssets/GetAiExtractedData': ['User', 'Tenant', 'Manager'],
  'GET /api/HouseholdAssets/GetJsonData': ['User', 'Tenant', 'Manager'],
  'GET /api/HouseholdAssets/GetExtractedEmployer': ['User', 'Tenant', 'Manager'],
  'POST /api/HouseholdAssets/SaveAiExtractedData': ['User', 'Tenant'],
  'POST /api/HouseholdAssets/SaveAiExtractedDataMultiple': ['User', 'Tenant'],
  // The operator console: Admins only.
  'GET /api/Operator/cases': ['Admin'],
  'GET /api/Operator/stuck': ['Admin'],
  'GET /api/Operator/audit': ['Admin'],
  'GET /api/Operator/cases/:kind/:id/history': ['Admin'],
  'POST /api/Operator/cases/:kind/:id/history/reveal': ['Admin'],
  'POST /api/Operator/cases/:kind/:id/export': ['Admin'],
  'POST /api/Operator/cases/:kind/:id/retry': ['Admin'],
  'POST /api/Operator/cases/:kind/:id/terminate': ['Admin'],
  'POST /api/Operator/cases/:kind/:id/reset': ['Admin'],
  'POST /api/Operator/codec-reason': ['Admin'],
};

/** Event streams stay open for allowed roles: their refusals are walked here, their streams in tests/api/chat-events.test.ts. */
const STREAMS = new Set(['GET /api/Chat/events', 'GET /api/SupportTicket/events']);

describe('role x route matrix', () => {
  let stack: Stack;
  const tokens = {} as Record<Role, { authorization: string; userId: string }>;
  beforeAll(async () => {
    stack = await startStack();
    for (const role of ROLES) tokens[role] = await signIn(stack.app, role);
  });
  afterAll(() => stack?.close());

  it('every route is either public or guarded, and the guards match the spec table', () => {
    // Every route as registered (`METHOD /path`, OPTIONS left out).
    const routes = [...new Set(stack.app.routeList.filter((r) => r.method !== 'OPTIONS').map((r) => `${r.method} ${r.url}`))];
    expect(routes.length).toBeGreaterThan(40);
    const unguarded = routes.filter((r) => {
      const [method, path] = r.split(' ') as [string, string];
      return !stack.app.routeGuards.has(r) && !stack.app.routeGuards.has(`${method} ${path.replace(/\/$/, '')}`) && !PUBLIC.some((p) => p.test(path));
    });
    expect(unguarded, 'routes with neither a guard nor a place in the public list').toEqual([]);
    for (const [route, roles] of Object.entries(EXPECTED)) {
      expect(stack.app.routeGuards.has(route) || stack.app.routeGuards.has(`${route}/`), `${route} is served`).toBe(true);
      expect([...(stack.app.routeGuards.get(route) ?? stack.app.routeGuards.get(`${route}/`) ?? [])].sort(), route).toEqual([...roles].sort());
    }
  });

  it('the OpenAPI document names, for every guarded route, the roles expected here', async () => {
    const doc = (await stack.app.inject({ url: '/api/openapi.json' })).json();
    const rolesIn = (route: string) => {
      const [method, path] = route.split(' ') as [string, string];
      return doc.paths[path.replace(/\/$/, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()]?.['x-roles'] as Role[] | undefined;
    };
    for (const [route, roles] of Object.entries(EXPECTED)) if (route.includes(' /api/')) expect([...(rolesIn(route) ?? [])].sort(), route).toEqual([...roles].sort());
    for (const [route, roles] of stack.app.routeGuards) if (route.includes(' /api/') && !route.startsWith('HEAD')) expect([...(rolesIn(route) ?? [])].sort(), route).toEqual([...roles].sort());
  });

  it('walks every guarded route with no sign-in and with each role: 401, 403 or let through, never 5xx', async () => {
    const fill = (path: string) => path.replace(/:[A-Za-z]+/g, () => randomUUID());
    const failures: string[] = [];
    // Logout revokes the session it is called with, so it is walked last.
    const walk = [...stack.app.routeGuards].sort(([a], [b]) => Number(a.endsWith('/logout')) - Number(b.endsWith('/logout')));
    for (const [route, allowed] of walk) {
      const [method, path] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD', string];
      if (method === 'HEAD') continue;
      const url = fill(path);
      const send = (headers: Record<string, string>) =>
        stack.app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, ...(method === 'GET' ? {} : { payload: '{}' }) });
      const anonymous = await send({});
      if (anonymous.statusCode !== 401) failures.push(`${route} anonymous -> ${anonymous.statusCode}`);
      const forged = await send({ authorization: 'Bearer not.a.token' });
      if (forged.statusCode !== 401) failures.push(`${route} forged token -> ${forged.statusCode}`);
      for (const role of ROLES) {
        if (STREAMS.has(route) && allowed.includes(role)) continue;
        const r = await send({ authorization: tokens[role].authorization });
        if (!allowed.includes(role)) {
          if (r.statusCode !== 403 || r.json().data?.code !== 'forbidden') failures.push(`${route} ${role} should be refused -> ${r.statusCode}`);
        } else if (r.statusCode === 401 || r.statusCode >= 500) {
          failures.push(`${route} ${role} allowed -> ${r.statusCode} ${r.body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    for (const role of ROLES) tokens[role] = await signIn(stack.app, role);
  });

  it('one household cannot read another household\'s data', async () => {
    const list = await stack.app.inject({ url: '/api/Opportunity/published-opportunities' });
    const opportunityId = list.json().data[0].id;
    const applied = await stack.app.inject({
      method: 'POST',
      url: '/api/LeaseUpApplication/apply',
      headers: tokens.User,
      payload: { opportunityId, householdSize: 2, householdIncome: 52_000, agreeToTerms: true },
    });
    expect(applied.statusCode).toBe(201);
    const { applicationId } = applied.json().data;
    expect((await stack.app.inject({ url: `/api/LeaseUpApplication/getDetailsById/${applicationId}`, headers: tokens.User })).statusCode).toBe(200);

    // The tenant is another household: nothing of the applicant's household is readable.
    for (const url of [`/api/LeaseUpApplication/getDetailsById/${applicationId}`, `/api/LeaseUpApplication/timeline/${applicationId}`]) {
      const r = await stack.app.inject({ url, headers: tokens.Tenant });
      expect([403, 404], url).toContain(r.statusCode);
    }
    const mine = (await stack.app.inject({ url: '/api/LeaseUpApplication/getApplications', headers: tokens.Tenant })).json().data;
    expect(JSON.stringify(mine)).not.toContain(applicationId);
    expect((await stack.app.inject({ url: `/api/Account/getuserdetails/${tokens.User.userId}`, headers: tokens.Tenant })).statusCode).toBe(403);
    // Profile and settings always answer the caller's own user.
    const profile = (await stack.app.inject({ url: '/api/UserProfile/Profile', headers: tokens.Tenant })).json().data;
    expect(profile.userId).toBe(tokens.Tenant.userId);
  });
});
