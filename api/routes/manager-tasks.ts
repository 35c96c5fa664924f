import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ManagerTaskQuery } from '../../domain';
import { signedIn } from '../guards';
import { listManagerTasks } from '../services/manager-task-list';
import { organizationOf } from '../services/users';

/**
 * `/api/ManagerTasks`: the manager's task inbox across lease-up, recertification and relocation
 * cases of their organisation (read model; not a spec section-7 path, the spec shows no inbox call),
 * a page at a time: `?cursor=&limit=` and the filters; the answer is `{ items, nextCursor }`.
 */
export const managerTaskRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/', { preHandler: signedIn('manager'), schema: { querystring: ManagerTaskQuery } }, async (request, reply) =>
    reply.ok(await listManagerTasks(app.db, await organizationOf(app.db, request.session.userId), request.query)),
  );
};
