/**
 * The public opportunity pages from memory: compressed once, revalidated by ETag, and dropped when
 * what they show changes, whether the change came through this replica or any other writer.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rentalInput } from '../helpers/lease-up-users';
import { signIn, startStack, type Stack } from '../helpers/stack';

describe('the public opportunity list and detail', () => {
  let stack: Stack;
  let manager: { authorization: string; userId: string };
  let opportunityId: string;
  const input = rentalInput('Cache Street Commons', 20);

  beforeAll(async () => {
    stack = await startStack();
    manager = await signIn(stack.app, 'Manager');
    const created = await stack.app.inject({ method: 'POST', url: '/api/Opportunity/manage', headers: { authorization: manager.authorization }, payload: input });
    opportunityId = created.json().data.id;
  });
  afterAll(() => stack?.close());

  const list = (headers: Record<string, string> = {}) => stack.app.inject({ url: '/api/Opportunity/published-opportunities?type=all', headers });
  const names = async () => (list().then((res) => res.json().data as { name: string }[])).then((items) => items.map((o) => o.name));

  it('an unpublished opportunity is not shown; publishing shows it at once on the replica that published', async () => {
    expect(await names()).not.toContain(input.name);
    expect((await stack.app.inject({ url: `/api/Opportunity/${opportunityId}` })).statusCode).toBe(404);
    const published = await stack.app.inject({ method: 'POST', url: `/api/Opportunity/manage/${opportunityId}/publish`, headers: { authorization: manager.authorization } });
    expect(published.statusCode).toBe(200);
    expect(await names()).toContain(input.name);
    expect((await stack.app.inject({ url: `/api/Opportunity/${opportunityId}` })).json().data.name).toBe(input.name);
  });

  it('answers with an ETag and no-cache, 304 to a browser that has it, and the same bytes in each encoding', async () => {
    const plain = await list();
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers['cache-control']).toBe('public, no-cache');
    expect(plain.headers.vary).toContain('accept-encoding');
    const revalidated = await list({ 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    const br = await list({ 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await list({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(plain.json()).toMatchObject({ status: 200, message: 'OK' });
  });

  it('a change written by any other writer (another replica, a worker, a migration) shows once the counter it moved is read', async () => {
    const before = (await list()).headers.etag;
    // Straight to the table, as another replica's request would: this replica learns of it only through the counter.
    await stack.db.updateTable('opportunities').set({ name: 'Cache Street Commons II' }).where('id', '=', opportunityId).execute();
    await expect.poll(names, { timeout: 10_000 }).toContain('Cache Street Commons II');
    expect((await list()).headers.etag).not.toBe(before);
    await expect.poll(async () => (await stack.app.inject({ url: `/api/Opportunity/${opportunityId}` })).json().data.name, { timeout: 10_000 }).toBe('Cache Street Commons II');
  });

  it("a signed-in person's filtered list is theirs (favourites marked), never a shared copy", async () => {
    const applicant = await signIn(stack.app, 'User');
    await stack.app.inject({ method: 'POST', url: '/api/FavoriteOpportunity', headers: { authorization: applicant.authorization }, payload: { opportunityId } });
    const mine = await stack.app.inject({ url: '/api/Opportunity/filtered-opportunities', headers: { authorization: applicant.authorization } });
    expect(mine.headers.etag).toBeUndefined();
    expect((mine.json().data as { id: string; isFavorite: boolean }[]).find((o) => o.id === opportunityId)?.isFavorite).toBe(true);
    const anonymous = await stack.app.inject({ url: '/api/Opportunity/filtered-opportunities' });
    expect((anonymous.json().data as { id: string; isFavorite?: boolean }[]).find((o) => o.id === opportunityId)?.isFavorite).toBeUndefined();
  });
});
