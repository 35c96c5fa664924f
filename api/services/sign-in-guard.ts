import type { FastifyInstance, FastifyRequest } from 'fastify';
import { enqueueNotification } from '../../infra/db/repositories/notification-outbox';
import { findUserForLogin } from './users';
import { accountKey } from './rate-limits';
import { deviceFailed, knownDevice } from './known-devices';
import { ACCOUNT_RULE, assertNotBlocked, claimNotice, clearThrottle, NOTICE_AFTER, PAIR_RULE, recordFailure } from './sign-in-throttle';

/**
 * Who a sign-in attempt is about, and which throttles apply to it. One counter per account
 * whatever spelling is typed (username or email, any case): an existing account is keyed by its
 * id, an unknown name by its lower-case form (so unknown names are throttled alike and answers do
 * not reveal which accounts exist).
 */
export interface SignInAttempt {
  user: Awaited<ReturnType<typeof findUserForLogin>>;
  /** `login:pair:<account>:<address>` and `login:account:<account>`. */
  pairKey: string;
  accountKey: string;
  /** A device that signed in to this account before, from the tokens presented. */
  deviceId: string | null;
}

export async function signInAttempt(app: FastifyInstance, request: FastifyRequest, name: string, deviceTokens: readonly string[] = [], scope = 'login'): Promise<SignInAttempt> {
  const user = await findUserForLogin(app.db, name.trim());
  const account = user ? `id:${user.id}` : `name:${accountKey(name)}`;
  const deviceId = user ? await knownDevice(app.db, user.id, deviceTokens) : null;
  return { user, pairKey: `${scope}:pair:${account}:${request.ip}`, accountKey: `${scope}:account:${account}`, deviceId };
}

/**
 * Before checking the password: a device that signed in before is never held back by throttles
 * (its own failures revoke it instead); any other client waits while its account and address pair,
 * or the account as a whole (many addresses guessing), is blocked.
 */
export async function assertMayTry(app: FastifyInstance, attempt: SignInAttempt): Promise<void> {
  if (attempt.deviceId) return;
  await assertNotBlocked(app.db, [attempt.pairKey, attempt.accountKey]);
}

/** A wrong password: counted against the device, or the pair and the account; the owner is told of repeated failures. */
export async function recordSignInFailure(app: FastifyInstance, attempt: SignInAttempt): Promise<void> {
  if (attempt.deviceId) {
    await deviceFailed(app.db, attempt.deviceId);
    return;
  }
  await recordFailure(app.db, attempt.pairKey, PAIR_RULE);
  const account = await recordFailure(app.db, attempt.accountKey, ACCOUNT_RULE);
  const user = attempt.user;
  if (user && user.status === 'active' && account.failures >= NOTICE_AFTER && (await claimNotice(app.db, attempt.accountKey))) {
    await enqueueNotification(app.db, {
      userId: user.id,
      channel: 'email',
      toAddress: user.email,
      template: 'sign-in-failures',
      language: user.preferred_language,
      params: { firstName: user.first_name, failures: account.failures },
    });
  }
}

/** The right password from this address: its pair starts over (the account counter keeps the attack's count). */
export async function recordSignInSuccess(app: FastifyInstance, attempt: SignInAttempt): Promise<void> {
  await clearThrottle(app.db, attempt.pairKey);
}
