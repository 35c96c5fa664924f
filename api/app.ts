import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyCompress from '@fastify/compress';
import zlib from 'node:zlib';
import { webCacheHeaders } from './web-cache';
import type { Client } from '@temporalio/client';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import pino, { type DestinationStream } from 'pino';
import type { BlobStore } from '../infra/blobs';
import type { Config } from '../infra/config';
import { keyRingFromConfig, type KeyRing } from '../infra/crypto';
import { useDataKeys } from '../infra/data-keys';
import type { Db } from '../infra/db/database';
import { loggerOptions, requestLineWriter } from '../infra/logger';
import { OneLinePerRequest, lazyChildLogger } from './request-log';
import { authPlugin } from './plugins/auth';
import { envelopePlugin, frameworkError, unroutedAnswer } from './plugins/envelope';
import { PublicListingCache } from './services/public-listing-cache';
import { idempotencyPlugin } from './plugins/idempotency';
import { inputSafetyPlugin } from './plugins/input-safety';
import { openapiPlugin } from './plugins/openapi';
import { routeListPlugin } from './plugins/route-list';
import { securityHeadersPlugin } from './plugins/security-headers';
import { SECRET_ROUTES } from './secret-routes';
import { accountRoutes } from './routes/account';
import { codecRoutes } from './routes/codec';
import { managerTaskRoutes } from './routes/manager-tasks';
import { healthRoutes } from './routes/health';
import { householdApplicationRoutes, leaseUpRoutes } from './routes/lease-up';
import { opportunityRoutes } from './routes/opportunity';
import { householdRoutes } from './routes/household';
import { incomeRoutes } from './routes/income';
import { assetRoutes } from './routes/assets';
import { specialIncomeRoutes } from './routes/special-income';
import { housingChoicesRoutes } from './routes/housing-choices';
import { lookupRoutes } from './routes/lookups';
import { documentRoutes } from './routes/documents';
import { documentLinkRoutes } from './routes/document-links';
import { redirectRoutes } from './routes/redirect';
import { profileMatchRoutes } from './routes/profile-match';
import { signatureRoutes } from './routes/signature';
import { userProfileRoutes } from './routes/user-profile';
import { opportunityAdminRoutes } from './routes/opportunity-admin';
import { listingAlertRoutes } from './routes/listing-alerts';
import { favoriteRoutes } from './routes/favorites';
import { leaseUpActionRoutes, leaseUpTicSignatureRoutes } from './routes/lease-up-actions';
import { lotteryRoutes } from './routes/lottery';
import { waitlistRoutes } from './routes/waitlist';
import { paperApplicationRoutes, paperClaimRoutes, printQueueRoutes } from './routes/paper-applications';
import { dashboardRoutes } from './routes/dashboard';
import { profileLockStatusRoutes } from './routes/profile-lock-status';
import { recertificationRoutes } from './routes/recertification';
import { supportTicketRoutes } from './routes/support-tickets';
import { caseFileRoutes } from './routes/case-file';
import { chatRoutes } from './routes/chat';
import { chatEventRoutes } from './routes/chat-events';
import { chatbotBridgeRoutes } from './routes/chatbot-bridge';
import { faqRoutes } from './routes/faq';
import { chatEventsPlugin } from './plugins/chat-events';
import { bulkActionRoutes } from './routes/bulk-actions';
// Figures read from statements and pay stubs
import { accountDetailsRoutes } from './routes/account-details';
import { relocationRoutes } from './routes/relocation';
import { accessGrantRoutes } from './routes/access-grants';
import { adminOrganizationRoutes } from './routes/admin-organizations';
import { adminUserRoutes } from './routes/admin-users';
import { ambassadorRoutes } from './routes/ambassador';
import { organizationApplyRoutes } from './routes/organization-apply';
import { lotteryResultsRoutes } from './routes/lottery-results';
// The dashboard's outside world.
import { FeedHub } from '../infra/feeds/hub';
import { gtfsRealtimeFeedRoutes } from './routes/gtfs-realtime-feed';
import { smsWebhookRoutes } from './routes/sms-webhooks';
import { operatorRoutes } from './routes/operator';
// Prometheus metrics (served on their own port by api/main.ts, not here).
import { metricsPlugin } from './metrics';
// Text translation and the intake assistant.
import { translatorRoutes } from './routes/translator';
import { intakeRoutes } from './routes/intake';
import { PasswordWork } from './services/password-work';

export interface AppDeps {
  config: Config;
  db: Db;
  temporal: Client;
  blobs: BlobStore;
  /** Where log lines go (default stdout); the test stack appends them to a file the log scan reads. */
  logStream?: DestinationStream;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    temporal: Client;
    blobs: BlobStore;
    /** DATA_ENCRYPTION_KEY and the previous keys: personal data at rest. */
    keys: KeyRing;
    /** Weather, air quality, transit and news, fetched on a schedule and read from memory. */
    feeds: FeedHub;
    /** Set once the process is told to stop: /readyz answers 503 so the load balancer takes it out. */
    lifecycle: { draining: boolean };
    /** The public opportunity pages from memory, dropped when what they show changes. */
    publicListing: PublicListingCache;
    /** Password hashes and checks, a bounded number at a time, callers served in turn. */
    passwords: PasswordWork;
  }
}

/** The API: infrastructure first, then one plugin per section-7 route group, then the web app. */
export async function buildApp({ config, db, temporal, blobs, logStream }: AppDeps): Promise<FastifyInstance> {
  // Both loggers write to one destination, so their lines never interleave mid-line.
  const logs = logStream ?? pino.destination(process.stdout.fd);
  const app = Fastify({
    logger: loggerOptions(config, 'api', { secretRoutes: SECRET_ROUTES, stream: logs }),
    logController: new OneLinePerRequest(requestLineWriter(config, 'api', { secretRoutes: SECRET_ROUTES, stream: logs })),
    childLoggerFactory: lazyChildLogger,
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies listed in TRUSTED_PROXIES (none by default):
    // the client address rate limits count against cannot be chosen by the client.
    trustProxy: config.TRUSTED_PROXIES.length > 0 ? config.TRUSTED_PROXIES : false,
    frameworkErrors: frameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Answers compressed (API JSON and index.html here; the built assets are stored
  // compressed by the web build and sent as they are, see web/build/compressed-assets.ts).
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('temporal', temporal);
  app.decorate('blobs', blobs);
  app.decorate('lifecycle', { draining: false });
  app.decorate('publicListing', new PublicListingCache(db));
  app.decorate('passwords', new PasswordWork({ atOnce: config.PASSWORD_CHECKS_AT_ONCE, maxWaitMs: config.PASSWORD_CHECK_MAX_WAIT_MS }));
  const keys = keyRingFromConfig(config);
  app.decorate('keys', keys);
  useDataKeys(keys);
  await app.register(routeListPlugin);
  // Every answer counted by route pattern and status (before any route is registered).
  await app.register(metricsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(envelopePlugin);
  await app.register(inputSafetyPlugin);
  await app.register(authPlugin, { config });
  // After the guards that name the caller, whose keys it scopes: a retried request gets its first answer.
  await app.register(idempotencyPlugin);
  // Before the route plugins: it describes every route registered after it.
  await app.register(openapiPlugin);
  await app.register(chatEventsPlugin, { config });

  await app.register(healthRoutes);
  await app.register(accountRoutes, { prefix: '/api/Account' });
  await app.register(profileMatchRoutes, { prefix: '/api/ProfileMatch' });
  await app.register(userProfileRoutes, { prefix: '/api/UserProfile' });
  await app.register(signatureRoutes, { prefix: '/api/Signature' });
  await app.register(opportunityRoutes, { prefix: '/api/Opportunity' });
  await app.register(leaseUpRoutes, { prefix: '/api/LeaseUpApplication' });
  await app.register(leaseUpActionRoutes, { prefix: '/api/LeaseUpApplication' });
  await app.register(leaseUpTicSignatureRoutes, { prefix: '/api/Document' });
  await app.register(opportunityAdminRoutes, { prefix: '/api/Opportunity' });
  await app.register(favoriteRoutes, { prefix: '/api/FavoriteOpportunity' });
  await app.register(listingAlertRoutes, { prefix: '/api/ListingAlerts' });
  await app.register(householdApplicationRoutes, { prefix: '/api/Household' });
  await app.register(householdRoutes, { prefix: '/api/Household' });
  await app.register(incomeRoutes, { prefix: '/api/HouseholdIncome' });
  await app.register(assetRoutes, { prefix: '/api/HouseholdAssets' });
  await app.register(specialIncomeRoutes, { prefix: '/api/SpecialIncome' });
  await app.register(housingChoicesRoutes, { prefix: '/api/HousingChoices' });
  await app.register(lookupRoutes, { prefix: '/api/Lookups' });
  await app.register(documentRoutes, { prefix: '/api/Document' });
  await app.register(documentLinkRoutes, { prefix: '/api/Document' });
  await app.register(managerTaskRoutes, { prefix: '/api/ManagerTasks' });
  await app.register(recertificationRoutes, { prefix: '/api/TenantRecertificationStatus' });
  await app.register(relocationRoutes, { prefix: '/api/Relocation' });
  await app.register(dashboardRoutes, { prefix: '/api/Dashboard' });
  await app.register(lotteryRoutes, { prefix: '/api/OpportunityLottery' });
  await app.register(paperApplicationRoutes, { prefix: '/api/OpportunityLottery' });
  await app.register(waitlistRoutes, { prefix: '/api/Waitlist' });
  await app.register(printQueueRoutes, { prefix: '/api/PrintQueue' });
  await app.register(paperClaimRoutes, { prefix: '/api/PaperApplication' });
  await app.register(profileLockStatusRoutes, { prefix: '/api/UserProfile' });
  await app.register(ambassadorRoutes, { prefix: '/api/Ambassador' });
  await app.register(accessGrantRoutes, { prefix: '/api/AccessGrants' });
  await app.register(adminUserRoutes, { prefix: '/api/Admin' });
  await app.register(adminOrganizationRoutes, { prefix: '/api/Admin/organizations' });
  await app.register(organizationApplyRoutes, { prefix: '/api/Organization' });
  await app.register(lotteryResultsRoutes, { prefix: '/api/lottery' });
  await app.register(redirectRoutes, { prefix: '/api/redirect' });
  await app.register(supportTicketRoutes, { prefix: '/api/SupportTicket' });
  await app.register(chatRoutes, { prefix: '/api/Chat' });
  await app.register(caseFileRoutes, { prefix: '/api/CaseFile' });
  await app.register(chatEventRoutes, { prefix: '/api/Chat' });
  await app.register(chatbotBridgeRoutes, { prefix: '/api/ChatbotBridge' });
  await app.register(faqRoutes, { prefix: '/api/FaqCategory' });
  await app.register(bulkActionRoutes, { prefix: '/api/BulkActions' });
  // Figures read from statements and pay stubs
  await app.register(accountDetailsRoutes, { prefix: '/api/v1/account-details' });
  // Text translation and the intake assistant.
  await app.register(translatorRoutes, { prefix: '/api/Translator' });
  await app.register(intakeRoutes, { prefix: '/api/intake' });
  await app.register(codecRoutes, { prefix: '/codec' });
  // The feeds start fetching once the app is ready and stop (timers and open fetches) on close.
  const feeds = new FeedHub(config, app.log.child({ part: 'feeds' }));
  app.decorate('feeds', feeds);
  app.addHook('onReady', async () => feeds.start());
  app.addHook('onClose', async () => feeds.stop());
  await app.register(gtfsRealtimeFeedRoutes, { prefix: '/api/GTFSRealtimeFeed' });
  // The operator console's API.
  await app.register(operatorRoutes, { prefix: '/api/Operator' });
  // The SMS provider's delivery states and the texts people send back (STOP, START, HELP).
  await app.register(smsWebhookRoutes, { prefix: '/api/Sms' });

  const webRoot = resolve(config.WEB_DIST);
  const hasWeb = existsSync(resolve(webRoot, 'index.html'));
  if (hasWeb) await app.register(fastifyStatic, { root: webRoot, wildcard: false, preCompressed: true, cacheControl: false, setHeaders: webCacheHeaders });

  // Unknown API paths answer in the envelope; any other GET is a client-side route of the web app.
  app.setNotFoundHandler((request, reply) => {
    if (hasWeb && request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/codec/')) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return unroutedAnswer(request, reply);
  });
  return app;
}
