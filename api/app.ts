import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyCompress from '@fastify/compress';
import zlib from 'node:zlib';
import { webCacheHeaders } from './web-cache';
import type { Client } from '@temporalio/client';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { MESSAGES } from '../domain';
import type { BlobStore } from '../infra/blobs';
import type { Config } from '../infra/config';
import type { Db } from '../infra/db/database';
import { loggerOptions } from '../infra/logger';
import { authPlugin } from './plugins/auth';
import { envelopePlugin } from './plugins/envelope';
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
import { favoriteRoutes } from './routes/favorites';
import { leaseUpActionRoutes, leaseUpTicSignatureRoutes } from './routes/lease-up-actions';
import { dashboardRoutes } from './routes/dashboard';
import { profileLockStatusRoutes } from './routes/profile-lock-status';
import { recertificationRoutes } from './routes/recertification';
import { relocationRoutes } from './routes/relocation';

export interface AppDeps {
  config: Config;
  db: Db;
  temporal: Client;
  blobs: BlobStore;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    temporal: Client;
    blobs: BlobStore;
  }
}

/** The API: infrastructure first, then one plugin per section-7 route group, then the web app. */
export async function buildApp({ config, db, temporal, blobs }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, 'api'),
    bodyLimit: 1024 * 1024,
    trustProxy: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Issue 11: answers compressed (API JSON and index.html here; the built assets are stored
  // compressed by the web build and sent as they are, see web/build/compressed-assets.ts).
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } });

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('temporal', temporal);
  app.decorate('blobs', blobs);
  await app.register(envelopePlugin);
  await app.register(authPlugin, { config });

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
  await app.register(profileLockStatusRoutes, { prefix: '/api/UserProfile' });
  await app.register(redirectRoutes, { prefix: '/api/redirect' });
  await app.register(codecRoutes, { prefix: '/codec' });

  const webRoot = resolve(config.WEB_DIST);
  const hasWeb = existsSync(resolve(webRoot, 'index.html'));
  if (hasWeb) await app.register(fastifyStatic, { root: webRoot, wildcard: false, preCompressed: true, cacheControl: false, setHeaders: webCacheHeaders });

  // Unknown API paths answer in the envelope; any other GET is a client-side route of the web app.
  app.setNotFoundHandler((request, reply) => {
    if (hasWeb && request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/codec/')) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ status: 404, message: MESSAGES.notFound, data: { code: 'notFound' } });
  });
  return app;
}
