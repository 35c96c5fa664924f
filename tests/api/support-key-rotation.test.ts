import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldCipher, createKeyRing, keyRingFromConfig } from '../../infra/crypto';
import { sealJson, useDataKeys } from '../../infra/data-keys';
import { resealSupport } from '../../infra/key-rotation';
import { signIn, startStack, type Stack } from '../helpers/stack';

/** `npm run keys:rotate` re-seals chat bodies and ticket subjects and views too. */
describe('key rotation of messages and tickets', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ worker: false });
  });
  afterAll(async () => {
    useDataKeys(keyRingFromConfig(stack.config));
    await stack?.close();
  });

  it('re-seals chat bodies and ticket subjects and views under the new key; twice changes nothing', async () => {
    const tenant = await signIn(stack.app, 'Tenant');
    const sent = await stack.app.inject({ method: 'POST', url: '/api/Chat/SendMessage', headers: { authorization: tenant.authorization }, payload: { message: 'La ventana del 4B no cierra.' } });
    expect(sent.statusCode).toBe(201);
    const household = await stack.db.selectFrom('households').select(['id', 'organization_id']).where('head_user_id', '=', tenant.userId).executeTakeFirstOrThrow();
    const oldCipher = createFieldCipher(createKeyRing(stack.config.DATA_ENCRYPTION_KEY));
    const ticketId = randomUUID();
    const now = new Date();
    await stack.db
      .insertInto('support_tickets')
      .values({
        id: ticketId, workflow_id: `support-ticket-${ticketId}`, requester_user_id: tenant.userId, requester_kind: 'resident', household_id: household.id, organization_id: household.organization_id,
        category: 'other', subject_encrypted: oldCipher.encrypt('Ventana rota'), status: 'awaiting_staff', case_kind: null, case_id: null, assignee_user_id: null, escalated: false,
        first_answer_due_at: now, last_activity_at: now, created_at: now, state_version: 1, view: sealJson({ subject: 'Ventana rota' }),
      })
      .execute();

    const newKey = randomBytes(32).toString('base64');
    useDataKeys(createKeyRing(newKey, [stack.config.DATA_ENCRYPTION_KEY]));
    expect(await resealSupport(stack.db)).toEqual({ chatMessages: 1, tickets: 1 });
    expect(await resealSupport(stack.db)).toEqual({ chatMessages: 0, tickets: 0 });

    const cipher = createFieldCipher(createKeyRing(newKey));
    const message = await stack.db.selectFrom('chat_messages').select('body_encrypted').where('household_id', '=', household.id).executeTakeFirstOrThrow();
    expect(cipher.decrypt(message.body_encrypted!)).toBe('La ventana del 4B no cierra.');
    const ticket = await stack.db.selectFrom('support_tickets').select(['subject_encrypted', 'view']).where('id', '=', ticketId).executeTakeFirstOrThrow();
    expect(cipher.decrypt(ticket.subject_encrypted)).toBe('Ventana rota');
    expect(JSON.parse(cipher.decrypt((ticket.view as { $sealed: string }).$sealed))).toEqual({ subject: 'Ventana rota' });
  });
});
