import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ManagerTaskFilter } from '../../domain';
import { listManagerTasks } from '../../activities/manager-tasks';
import { signedIn } from '../guards';
import { organizationOf } from '../services/users';

/**
 * `/api/ManagerTasks`: the manager's task inbox across lease-up, recertification and relocation
 * cases of their organisation (read model; not a spec section-7 path, the spec shows no inbox call).
 */
export const managerTaskRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/', { preHandler: signedIn('manager'), schema: { querystring: ManagerTaskFilter } }, async (request, reply) => {
    const organizationId = await organizationOf(app.db, request.session.userId);
    return reply.ok(organizationId ? await listManagerTasks(app.db, organizationId, request.query) : []);
  });
};
