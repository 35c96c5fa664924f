import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { verify } from '@node-rs/argon2';
import { LoginBody, type LoginData } from '../../domain';
import { HttpError } from '../errors';
import { requireSession } from '../plugins/auth';
import { findUserForLogin, loadSignedInUser } from '../services/users';

/** `/api/Account`: sign-in (spec section 4). Token refresh, MFA and the rest land with the identity issue. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/login', { schema: { body: LoginBody } }, async (request, reply) => {
    const user = await findUserForLogin(app.db, request.body.username);
    // Same answer for an unknown user and a wrong password, so accounts cannot be probed.
    const valid = user !== undefined && user.status === 'active' && (await verify(user.password_hash, request.body.password));
    if (!valid) throw new HttpError(401, 'loginFailed');
    const signedIn = (await loadSignedInUser(app.db, user.id))!;
    const { token, expiresAt } = app.signAccessToken({ sub: user.id, role: user.role });
    const data: LoginData = { ...signedIn, accessToken: token, refreshToken: null, accessTokenExpiresAt: expiresAt.toISOString() };
    return reply.ok(data, 'Login successful');
  });

  app.post('/logout', { preHandler: requireSession }, async (_request, reply) => reply.ok(null, 'Logged out'));

  app.get('/getuserdetails/:userId', { preHandler: requireSession }, async (request, reply) => {
    const { userId } = request.params as { userId: string };
    if (userId !== request.session.userId) throw new HttpError(403, 'forbidden');
    return reply.ok(await loadSignedInUser(app.db, userId));
  });
};
