import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestBatch, fanOutBatch } from '../../infra/db/repositories/listing-alerts';
import { answerInboundText } from '../../api/services/sms';
import { rentalInput } from '../helpers/lease-up-users';
import { eventually, signIn, startStack, type Stack } from '../helpers/stack';
import { recordHistory } from '../helpers/histories';
import { HISTORY_FIXTURE_KEY } from '../helpers/workflow-env';
import { ALERT_DIGESTS_WORKFLOW_ID } from '../../domain/listing-alerts';
import { ensureListingAlertDigests } from '../../worker/listing-alert-digests';

/**
 * Listing alerts: a household's own alerts, a visitor's double opt-in by e-mail
 * link or YES text, unsubscribe by page and by RFC 8058 one-click, and the fan-out of a publish
 * that notifies each matching alert exactly once, however often it runs.
 */
describe('listing alerts', () => {
  let stack: Stack;
  let user: { authorization: string; userId: string };
  let tenant: { authorization: string; userId: string };
  let manager: { authorization: string; userId: string };

  beforeAll(async () => {
    // The histories this test records are sealed with the fixture key the replay test opens them with.
    stack = await startStack({ config: { DATA_ENCRYPTION_KEY: HISTORY_FIXTURE_KEY } });
    [user, tenant, manager] = await Promise.all([signIn(stack.app, 'User'), signIn(stack.app, 'Tenant'), signIn(stack.app, 'Manager')]);
  });
  afterAll(() => stack?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: { authorization: string }, payload?: object) =>
    stack.app.inject({ method, url, ...(who ? { headers: { authorization: who.authorization } } : {}), ...(payload ? { payload } : {}) });
  const studioAlert = { criteria: { tenure: 'rental', bedroomTypes: ['studio'], areas: ['bronx'] }, channel: 'email', language: 'es', frequency: 'immediate' };
  const outbox = (template: string, key?: string) => {
    let q = stack.db.selectFrom('notification_outbox').selectAll().where('template', '=', template);
    if (key) q = q.where('dedupe_key', 'like', `${key}%`);
    return q.execute();
  };
  const tokenOf = (path: string) => new URL(path, 'https://x').searchParams.get('token')!;

  it('keeps each household to its own alerts: list by cursor, change, pause, delete; another person\'s is 404', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await call('POST', '/api/ListingAlerts', user, studioAlert);
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toMatchObject({ status: 'active', channel: 'email', criteria: { tenure: 'rental', bedroomTypes: ['studio'], householdSize: null } });
      ids.push(created.json().data.id);
    }
    const first = await call('GET', '/api/ListingAlerts?limit=2', user);
    expect(first.json().data.items).toHaveLength(2);
    const second = await call('GET', `/api/ListingAlerts?limit=2&cursor=${first.json().data.nextCursor}`, user);
    expect([...first.json().data.items, ...second.json().data.items].map((a: { id: string }) => a.id).sort()).toEqual([...ids].sort());
    expect(second.json().data.nextCursor).toBeNull();

    const changed = await call('PUT', `/api/ListingAlerts/${ids[0]}`, user, { ...studioAlert, criteria: { ...studioAlert.criteria, householdSize: 2, yearlyIncome: 50_000 }, frequency: 'weekly' });
    expect(changed.json().data).toMatchObject({ frequency: 'weekly', criteria: { householdSize: 2, yearlyIncome: 50_000 } });
    // The income is sealed at rest, never a plain figure in the row.
    const row = await stack.db.selectFrom('listing_alerts').select('personal_sealed').where('id', '=', ids[0]!).executeTakeFirstOrThrow();
    expect(row.personal_sealed).not.toContain('50000');
    expect((await call('POST', `/api/ListingAlerts/${ids[1]}/pause`, user, { paused: true })).json().data.status).toBe('paused');
    expect((await call('POST', `/api/ListingAlerts/${ids[1]}/pause`, user, { paused: false })).json().data.status).toBe('active');

    // Someone else's alert: not found, whatever is asked; it stays as it was.
    for (const [method, url, payload] of [
      ['GET', `/api/ListingAlerts/${ids[2]}`],
      ['PUT', `/api/ListingAlerts/${ids[2]}`, studioAlert],
      ['POST', `/api/ListingAlerts/${ids[2]}/pause`, { paused: true }],
      ['DELETE', `/api/ListingAlerts/${ids[2]}`],
    ] as const) expect((await call(method, url, tenant, payload)).statusCode, `${method} ${url}`).toBe(404);
    expect((await call('GET', '/api/ListingAlerts', tenant)).json().data.items).toEqual([]);
    expect((await call('GET', '/api/ListingAlerts')).statusCode).toBe(401);

    expect((await call('DELETE', `/api/ListingAlerts/${ids[2]}`, user)).statusCode).toBe(200);
    expect((await call('GET', `/api/ListingAlerts/${ids[2]}`, user)).statusCode).toBe(404);
    // Two alerts of this test are left for the fan-out below: ids[0] (weekly, size 2) and ids[1].
  });

  it('a visitor subscribes with an e-mail address and is sent nothing until the POST of the confirm page', async () => {
    const email = 'visitor.alerts@example.org';
    const subscribed = await call('POST', '/api/ListingAlerts/subscribe', undefined, { email, criteria: { tenure: 'rental', bedroomTypes: ['studio'] }, language: 'zh' });
    expect(subscribed.statusCode).toBe(202);
    expect(subscribed.json().data).toEqual({ status: 'pending_confirmation', channel: 'email' });
    const row = await stack.db.selectFrom('listing_alerts').selectAll().where('user_id', 'is', null).where('channel', '=', 'email').executeTakeFirstOrThrow();
    expect(row.status).toBe('pending_confirmation');
    expect(row.contact_sealed).not.toContain(email);
    const [message] = await outbox('listing-alert-confirm');
    expect(message).toMatchObject({ to_address: email, language: 'zh', channel: 'email' });
    const token = tokenOf(String(message!.params.path));
    expect(message!.params.path).toMatch(/^\/alerts\/confirm\?token=/);

    // The page the link opens is the web app's; the API answers a GET of the confirm route 405 and acts on nothing.
    expect(405).toBe((await stack.app.inject({ url: `/api/ListingAlerts/confirm?token=${token}` })).statusCode);
    expect((await stack.db.selectFrom('listing_alerts').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('pending_confirmation');

    expect((await call('POST', '/api/ListingAlerts/confirm', undefined, { token })).json().data).toEqual({ status: 'active' });
    expect((await stack.db.selectFrom('listing_alerts').select('status').where('id', '=', row.id).executeTakeFirstOrThrow()).status).toBe('active');
    // The link works once.
    expect((await call('POST', '/api/ListingAlerts/confirm', undefined, { token })).statusCode).toBe(410);
    expect((await call('POST', '/api/ListingAlerts/confirm', undefined, { token: 'x'.repeat(32) })).statusCode).toBe(410);
  });

  it('throttles confirmations to one address, whoever asks', async () => {
    const email = 'throttled@example.org';
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await call('POST', '/api/ListingAlerts/subscribe', undefined, { email, criteria: {} })).statusCode);
    expect(answers).toEqual([202, 202, 202, 429, 429]);
    expect((await outbox('listing-alert-confirm')).filter((m) => m.to_address === email)).toHaveLength(3);
    // Neither both contacts nor none, and "use my profile" needs an account.
    expect((await call('POST', '/api/ListingAlerts/subscribe', undefined, { criteria: {} })).statusCode).toBe(400);
    expect((await call('POST', '/api/ListingAlerts/subscribe', undefined, { email: 'a@example.org', phone: '+12125550100', criteria: {} })).statusCode).toBe(400);
    expect((await call('POST', '/api/ListingAlerts/subscribe', undefined, { email: 'b@example.org', criteria: { useProfile: true } })).statusCode).toBe(400);
    expect((await call('POST', '/api/ListingAlerts/subscribe', undefined, { email: 'c@example.org', criteria: { yearlyIncome: false } })).statusCode).toBe(400);
    expect((await call('POST', '/api/ListingAlerts/subscribe', undefined, { email: 'c@example.org', criteria: { householdSize: '3' } })).statusCode).toBe(400);
  });

  it('a visitor subscribes by text and confirms by replying YES; STOP ends the alert', async () => {
    const phone = '+1 (646) 555-0199';
    expect((await call('POST', '/api/ListingAlerts/subscribe', undefined, { phone, criteria: { bedroomTypes: ['studio'] }, language: 'bn' })).statusCode).toBe(202);
    const [text] = (await outbox('listing-alert-confirm')).filter((m) => m.channel === 'sms');
    expect(text).toMatchObject({ to_address: phone, language: 'bn' });
    const pending = await stack.db.selectFrom('listing_alerts').select(['id', 'status']).where('channel', '=', 'sms').where('user_id', 'is', null).executeTakeFirstOrThrow();
    expect(pending.status).toBe('pending_confirmation');
    // A YES from another number confirms nothing.
    await answerInboundText(stack.db, '+16465550100', 'YES');
    expect((await stack.db.selectFrom('listing_alerts').select('status').where('id', '=', pending.id).executeTakeFirstOrThrow()).status).toBe('pending_confirmation');
    await answerInboundText(stack.db, '16465550199', 'yes');
    expect((await stack.db.selectFrom('listing_alerts').select('status').where('id', '=', pending.id).executeTakeFirstOrThrow()).status).toBe('active');
    await answerInboundText(stack.db, '6465550199', 'STOP');
    expect(await stack.db.selectFrom('listing_alerts').select('id').where('id', '=', pending.id).executeTakeFirst()).toBeUndefined();
  });

  it('a publish notifies each matching alert once, by its channel and language; a rerun or retried batch queues nothing more', async () => {
    // A second confirmed visitor whose alert does not fit (ownership only).
    await call('POST', '/api/ListingAlerts', tenant, { criteria: { tenure: 'ownership' }, channel: 'email', language: 'en' });
    const matching = await call('POST', '/api/Opportunity/manage', manager, { ...rentalInput('Alert Court', 20), area: 'bronx' });
    const other = await call('POST', '/api/Opportunity/manage', manager, { ...rentalInput('Queens Alert House', 20), area: 'queens', units: [{ unitNumber: '2B', bedroomType: '2 bedrooms', monthlyRent: 1900, amiPercent: 60 }] });
    const matchingId = matching.json().data.id as string;
    const otherId = other.json().data.id as string;
    for (const id of [matchingId, otherId]) expect((await call('POST', `/api/Opportunity/manage/${id}/publish`, manager)).statusCode).toBe(200);

    const expected = await stack.db.selectFrom('listing_alerts').select(['id', 'frequency']).where('status', '=', 'active').where(sql<boolean>`bedroom_types @> array['studio']`).execute();
    // The user's immediate studio alert and the confirmed visitor's (any area) hear of Alert Court;
    // the user's weekly alert (household of 2, income within the range) waits for its digest.
    const immediate = expected.filter((a) => a.frequency === 'immediate').map((a) => a.id).sort();
    expect(immediate).toHaveLength(2);
    const notices = await eventually(async () => {
      const rows = await outbox('listing-alert', `alert:${matchingId}`);
      return rows.length >= 2 ? rows : null;
    });
    expect(notices.map((n) => n.dedupe_key!.split(':')[2]).sort()).toEqual(immediate);
    expect(notices.find((n) => n.to_address === 'visitor.alerts@example.org')).toMatchObject({ language: 'zh' });
    expect(notices[0]!.params).toMatchObject({ listingName: 'Alert Court', rentMin: 1100, rentMax: 1100, listingPath: `/public/opportunity/${matchingId}` });
    const ledger = await eventually(async () => {
      const rows = await stack.db.selectFrom('listing_alert_notices').selectAll().where('opportunity_id', '=', matchingId).execute();
      return rows.length === 3 ? rows : null;
    });
    expect(ledger.filter((l) => l.digest_week !== null)).toHaveLength(1);
    // Nothing for the listing no alert fits.
    await eventually(async () => (await stack.temporal.workflow.getHandle(`listing-alerts/${otherId}`).describe()).status.name === 'COMPLETED');
    await eventually(async () => (await stack.temporal.workflow.getHandle(`listing-alerts/${matchingId}`).describe()).status.name === 'COMPLETED');
    await recordHistory('listing-alerts-publish', stack.temporal.workflow.getHandle(`listing-alerts/${matchingId}`));
    if (process.env.RECORD_HISTORIES) {
      // The worker starts the digest workflow in production; here it is started to record its waiting history.
      await ensureListingAlertDigests(stack.temporal, stack.config.TEMPORAL_TASK_QUEUE);
      await eventually(async () => (await stack.temporal.workflow.getHandle(ALERT_DIGESTS_WORKFLOW_ID).fetchHistory()).events!.some((e) => e.timerStartedEventAttributes));
      await recordHistory('listing-alert-digests-waiting', stack.temporal.workflow.getHandle(ALERT_DIGESTS_WORKFLOW_ID));
    }
    expect(await outbox('listing-alert', `alert:${otherId}`)).toEqual([]);

    // The fan-out run again in full, and a batch retried: no second notice, no second ledger row.
    expect(await fanOutBatch(stack.db, { opportunityId: matchingId, after: null, limit: 500 })).toMatchObject({ queued: 0, next: null });
    expect(await fanOutBatch(stack.db, { opportunityId: matchingId, after: null, limit: 1 })).toMatchObject({ queued: 0 });
    expect((await call('POST', `/api/Opportunity/manage/${matchingId}/publish`, manager)).statusCode).toBe(200);
    expect(await outbox('listing-alert', `alert:${matchingId}`)).toHaveLength(2);
    expect(await stack.db.selectFrom('listing_alert_notices').select('alert_id').where('opportunity_id', '=', matchingId).execute()).toHaveLength(3);
  });

  it('sends a weekly alert one digest of its week\'s matches, once however often the week is run', async () => {
    const [waiting] = await stack.db.selectFrom('listing_alert_notices').selectAll().where('digest_week', 'is not', null).execute();
    const week = String(waiting!.digest_week).slice(0, 10);
    expect(await digestBatch(stack.db, { week, after: null, limit: 500 })).toMatchObject({ queued: 1, next: null });
    expect(await digestBatch(stack.db, { week, after: null, limit: 500 })).toMatchObject({ queued: 0 });
    const digests = await outbox('listing-alert-digest');
    expect(digests).toHaveLength(1);
    expect(digests[0]).toMatchObject({ dedupe_key: `alert-digest:${week}:${waiting!.alert_id}`, language: 'es' });
    expect((digests[0]!.params.listings as { listingName: string }[]).map((l) => l.listingName)).toEqual(['Alert Court']);
  });

  it('unsubscribes by the page\'s POST and by the one-click POST of a mail client, without signing in', async () => {
    const [notice] = await outbox('listing-alert');
    const token = String(notice!.params.unsubscribeToken);
    const alertId = notice!.dedupe_key!.split(':')[2]!;
    // A GET acts on nothing, and a one-click POST without the RFC 8058 body is refused.
    expect((await stack.app.inject({ url: `/api/ListingAlerts/one-click?token=${token}` })).statusCode).toBe(405);
    const wrong = await stack.app.inject({ method: 'POST', url: `/api/ListingAlerts/one-click?token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=Later' });
    expect(wrong.statusCode).toBe(400);
    expect(await stack.db.selectFrom('listing_alerts').select('id').where('id', '=', alertId).executeTakeFirst()).toBeDefined();
    const oneClick = await stack.app.inject({ method: 'POST', url: `/api/ListingAlerts/one-click?token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(oneClick.statusCode).toBe(200);
    expect(await stack.db.selectFrom('listing_alerts').select('id').where('id', '=', alertId).executeTakeFirst()).toBeUndefined();
    // The page's button: a spent token is a 410.
    expect((await call('POST', '/api/ListingAlerts/unsubscribe', undefined, { token })).statusCode).toBe(410);
    const other = await stack.db.selectFrom('listing_alerts').select('id').where('user_id', '=', tenant.userId).executeTakeFirstOrThrow();
    expect(other).toBeDefined();
  });
});
