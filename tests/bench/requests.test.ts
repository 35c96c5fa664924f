import { describe, expect, it } from 'vitest';
import type { Timed } from './http';
import { Requests } from './requests';

const answer = (status: number, ms: number, message?: string): Promise<Timed> => Promise.resolve({ status, ms, bytes: 0, body: message ? { message } : null });

// The load runs' request book-keeping (npm run bench -- --opening-day): what counts as an error, and what is kept of it.
describe('requests by kind', () => {
  it('times every answer, counts an unexpected status or a network error as an error, and keeps the first distinct messages', async () => {
    const requests = new Requests(['apply', 'sign in']);
    expect(await requests.send('apply', 201, () => answer(201, 10))).not.toBeNull();
    expect(await requests.send('apply', 201, () => answer(409, 30, 'Already applied'))).toBeNull();
    await requests.send('apply', 201, () => answer(409, 20, 'Already applied'));
    await requests.send('apply', 201, () => answer(500, 40, 'Internal'));
    await requests.send('apply', 201, () => answer(503, 50, 'Unavailable'));
    await requests.send('apply', 201, () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })));
    const [apply, signIn] = requests.figures();
    expect(apply).toMatchObject({ kind: 'apply', errors: 5, summary: { n: 5, p50: 30, max: 50 } });
    expect(apply!.messages).toEqual(['409 Already applied', '500 Internal', '503 Unavailable']);
    expect(signIn).toMatchObject({ kind: 'sign in', errors: 0, messages: [], summary: { n: 0 } });
  });

  it('reports a kind it was not told of after the known ones, and an error found in a right answer', () => {
    const requests = new Requests(['apply']);
    requests.fail('sign in', 'signed in without an access token');
    expect(requests.figures().map((k) => [k.kind, k.errors])).toEqual([
      ['apply', 0],
      ['sign in', 1],
    ]);
  });

  it('splits the latencies at a moment when asked', async () => {
    const requests = new Requests(['list']);
    await requests.send('list', 200, () => answer(200, 5));
    const between = performance.now() + 1;
    while (performance.now() <= between);
    await requests.send('list', 200, () => answer(200, 7));
    const [list] = requests.figures(between);
    expect(list!.before).toMatchObject({ n: 1, max: 5 });
    expect(list!.after).toMatchObject({ n: 1, max: 7 });
    expect(requests.figures()[0]!.before).toBeUndefined();
  });
});
