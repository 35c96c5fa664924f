import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/database';

/** The newest queued message of a template for a user (what the delivery worker would send). */
export async function latestMessage(db: Db, userId: string, template: string) {
  return db
    .selectFrom('notification_outbox')
    .selectAll()
    .where('user_id', '=', userId)
    .where('template', '=', template)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function latestOtp(db: Db, userId: string): Promise<string> {
  const row = await latestMessage(db, userId, 'otp');
  const code = row?.params.code;
  if (typeof code !== 'string') throw new Error(`no OTP queued for ${userId}`);
  return code;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function post(app: FastifyInstance, url: string, payload?: object, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, headers, payload: payload ?? {} });
}
