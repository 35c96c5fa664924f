/**
 * Examples of the main flows (sign in, apply, act on a case, page a list), as the OpenAPI
 * document shows them. A value written `{{name}}` comes from an earlier step of the same flow
 * (`save` names where in that step's answer). tests/api/openapi.test.ts replays every step against
 * the running API and checks the documented status, message and refusal code, so they stay true.
 * The accounts are the demo accounts of the embedded default (infra/demo-accounts.json).
 */
export interface ExampleStep {
  /** Example key, unique in the document. */
  name: string;
  summary: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route as Fastify registers it (`:param`). */
  url: string;
  /** The flow variable holding the bearer token to send. */
  as?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  status: number;
  /** The answer (in the envelope); `data` may be abridged. */
  response: { status: number; message: string; data: unknown };
  /** Flow variables taken from the answer: name -> dotted path in it (e.g. `data.applicationId`). */
  save?: Record<string, string>;
}

export interface ExampleFlow {
  name: string;
  description: string;
  steps: ExampleStep[];
}

const ID = '3f0c9a2e-5b7d-4c1e-9a8f-2d6b4e1c7a90';
const APPLICANT = { username: 'applicant', password: 'Applicant#2026' };
const MANAGER = { username: 'manager', password: 'Manager#2026' };
const session = (role: string) => ({ accessToken: 'eyJhbGciOiJIUzI1NiJ9.…', refreshToken: '…', userId: ID, role });

export const EXAMPLE_FLOWS: ExampleFlow[] = [
  {
    name: 'Sign in',
    description: 'Sign in with a username and password; the answer carries the access token to send as `Authorization: Bearer <token>`.',
    steps: [
      {
        name: 'signInWrongPassword',
        summary: 'A wrong password is refused',
        method: 'POST',
        url: '/api/Account/login',
        body: { username: APPLICANT.username, password: 'not-the-password' },
        status: 401,
        response: { status: 401, message: 'Login failed', data: { code: 'loginFailed' } },
      },
      {
        name: 'signInApplicant',
        summary: 'An applicant signs in',
        method: 'POST',
        url: '/api/Account/login',
        body: APPLICANT,
        status: 200,
        response: { status: 200, message: 'Login successful', data: session('User') },
        save: { applicantToken: 'data.accessToken' },
      },
      {
        name: 'signInManager',
        summary: 'A property manager signs in',
        method: 'POST',
        url: '/api/Account/login',
        body: MANAGER,
        status: 200,
        response: { status: 200, message: 'Login successful', data: session('Manager') },
        save: { managerToken: 'data.accessToken' },
      },
    ],
  },
  {
    name: 'Apply',
    description: 'Find a published opportunity and apply to it; applying twice is refused.',
    steps: [
      {
        name: 'publishedOpportunities',
        summary: 'The published opportunities (public)',
        method: 'GET',
        url: '/api/Opportunity/published-opportunities',
        status: 200,
        response: { status: 200, message: 'OK', data: [{ id: ID, name: 'Riverside Commons' }] },
        save: { opportunityId: 'data.0.id', otherOpportunityId: 'data.1.id' },
      },
      {
        name: 'apply',
        summary: 'The applicant applies',
        method: 'POST',
        url: '/api/LeaseUpApplication/apply',
        as: 'applicantToken',
        body: { opportunityId: '{{opportunityId}}', householdSize: 2, householdIncome: 52000, agreeToTerms: true },
        status: 201,
        response: { status: 201, message: 'Application submitted', data: { applicationId: ID } },
        save: { applicationId: 'data.applicationId' },
      },
      {
        name: 'applyAgain',
        summary: 'Applying to the same opportunity again is refused',
        method: 'POST',
        url: '/api/LeaseUpApplication/apply',
        as: 'applicantToken',
        body: { opportunityId: '{{opportunityId}}', householdSize: 2, householdIncome: 52000, agreeToTerms: true },
        status: 409,
        response: { status: 409, message: 'Already applied', data: { code: 'alreadyApplied' } },
      },
      {
        name: 'applyToAnother',
        summary: 'The applicant applies to another opportunity',
        method: 'POST',
        url: '/api/LeaseUpApplication/apply',
        as: 'applicantToken',
        body: { opportunityId: '{{otherOpportunityId}}', householdSize: 2, householdIncome: 52000, agreeToTerms: true },
        status: 201,
        response: { status: 201, message: 'Application submitted', data: { applicationId: ID } },
      },
    ],
  },
  {
    name: 'Act on a case',
    description: "The manager acts on the application: an action the case's current step does not allow is refused with 409 and its code; an allowed one answers the case as it now is.",
    steps: [
      {
        name: 'completeBeforeProfile',
        summary: 'Marking complete before the profile is submitted is refused',
        method: 'POST',
        url: '/api/LeaseUpApplication/updateleaseapplicationstatus/:id/:action',
        as: 'managerToken',
        params: { id: '{{applicationId}}', action: 'MarkAsComplete' },
        body: {},
        status: 409,
        response: { status: 409, message: 'Profile not submitted', data: { code: 'profileNotSubmitted' } },
      },
      {
        name: 'requestScreeningConsent',
        summary: 'The manager asks the household to consent to screening',
        method: 'POST',
        url: '/api/LeaseUpApplication/updateleaseapplicationstatus/:id/:action',
        as: 'managerToken',
        params: { id: '{{applicationId}}', action: 'RequestConsentForScreening' },
        body: {},
        status: 200,
        response: { status: 200, message: 'OK', data: { applicationId: ID, currentStep: 'documentation_review' } },
      },
    ],
  },
  {
    name: 'Page a list',
    description: 'Lists that grow page by cursor: ask for `limit` items, then pass the answer\'s `nextCursor` as `cursor` until it is null.',
    steps: [
      {
        name: 'firstPage',
        summary: "The first page of the applicant's applications (one per page)",
        method: 'GET',
        url: '/api/LeaseUpApplication/getApplications',
        as: 'applicantToken',
        query: { limit: '1' },
        status: 200,
        response: { status: 200, message: 'OK', data: { items: [{ applicationId: ID }], nextCursor: 'eyJrIjoiMjAyNi0xMS0yNiJ9' } },
        save: { cursor: 'data.nextCursor' },
      },
      {
        name: 'nextPage',
        summary: 'The next page, from the cursor',
        method: 'GET',
        url: '/api/LeaseUpApplication/getApplications',
        as: 'applicantToken',
        query: { limit: '1', cursor: '{{cursor}}' },
        status: 200,
        response: { status: 200, message: 'OK', data: { items: [{ applicationId: ID }], nextCursor: null } },
      },
    ],
  },
];
