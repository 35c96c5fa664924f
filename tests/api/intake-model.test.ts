import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRED } from '../../domain';
import { newResident } from '../helpers/household';
import { startStack, type Stack } from '../helpers/stack';

/**
 * The optional model: against a local server speaking OpenAI's chat-completions
 * format, the assistant reads a free answer into the form's value; the value is still checked by
 * the form's schema and shown back before saving. A value the question does not offer, or a model
 * that fails, leaves the form's own message.
 */
const READINGS: Record<string, string> = {
  'I am the one applying': '{"value": "self"}',
  'a woman': '```json\n{"value": "woman"}\n```',
  'sí, claro': '{"value": true}',
  'not really': '{"value": false}',
};
let model: Server;
let mode: 'ok' | 'error' = 'ok';
const requests: { model: string; messages: { role: string; content: string }[] }[] = [];
let stack: Stack;
let rosa: { headers: { authorization: string } };

beforeAll(async () => {
  model = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push(body);
      if (request.url !== '/v1/chat/completions' || request.headers.authorization !== 'Bearer model-key') {
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
        return;
      }
      if (mode === 'error') {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'The server had an error' } }));
        return;
      }
      const { answer } = JSON.parse(body.messages.at(-1).content);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: READINGS[answer] ?? '{"value": null}' } }],
      }));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  stack = await startStack({ worker: false, env: { INTAKE_MODEL_URL: url, INTAKE_MODEL: 'local-model', INTAKE_MODEL_API_KEY: 'model-key', INTAKE_MODEL_TIMEOUT_MS: '2000' } });
  rosa = await newResident(stack.app, stack.db);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  model?.closeAllConnections();
  await new Promise((resolve) => model?.close(resolve));
});

const turn = async (payload: object, status = 200) => {
  const r = await stack.app.inject({ method: 'POST', url: '/api/intake', headers: rosa.headers, payload });
  expect(r.statusCode, r.body).toBe(status);
  return r.json();
};
const asked = async () => (await stack.app.inject({ url: '/api/intake', headers: rosa.headers })).json().data.question.field?.name as string;

describe('the intake assistant with a language model', () => {
  it('reads free answers into the form\'s values, still checked and confirmed; never more than the form offers', async () => {
    expect(await asked()).toBe('fullName');
    await turn({ action: 'answer', answer: 'Rosa Diaz' });
    // Text answers are taken as written: the model is not asked.
    expect(requests).toHaveLength(0);
    await turn({ action: 'answer', answer: 'I am the one applying' });
    expect(await asked()).toBe('dateOfBirth');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ model: 'local-model', messages: [{ role: 'system' }, { role: 'user' }] });
    expect(JSON.parse(requests[0]!.messages[1]!.content)).toMatchObject({ field: 'relationship', kind: 'choice', answer: 'I am the one applying' });
    expect(requests[0]!.messages[0]!.content).toMatch(/never say whether anyone qualifies/);
    await turn({ action: 'answer', answer: '1975-03-09' });
    // A value the question does not offer: the form's own message.
    expect((await turn({ action: 'answer', answer: 'a woman' }, 400)).message).toBe(REQUIRED);
    expect(await asked()).toBe('gender');
    // A failing model: the same.
    mode = 'error';
    expect((await turn({ action: 'answer', answer: 'a woman' }, 400)).message).toBe(REQUIRED);
    mode = 'ok';
    for (const [, value] of [['gender', 'female'], ['_idKind', 'ssn'], ['ssn', '123-45-6789'], ['races', ['white']], ['ethnicity', 'hispanic_or_latino'], ['maritalStatus', 'single'], ['studentStatus', 'not_a_student'], ['studentEligibility', 'not_applicable'], ['email', 'rosa@example.org']] as const) {
      await turn({ action: 'answer', answer: value });
    }
    expect(await asked()).toBe('headOfHousehold');
    await turn({ action: 'answer', answer: 'sí, claro' });
    const confirm = (await turn({ action: 'answer', answer: 'not really' })).data;
    // Shown back before anything is saved.
    expect(confirm.question).toMatchObject({ step: 'confirm', entry: { relationship: 'self', headOfHousehold: true, disability: false } });
    const household = await stack.db.selectFrom('households as h').innerJoin('household_members as m', 'm.household_id', 'h.id').select('m.id').where('m.full_name', '=', 'Rosa Diaz').execute();
    expect(household).toEqual([]);
    expect((await turn({ action: 'confirm', confirm: true })).data.saved).toBe('member');
  });
});
