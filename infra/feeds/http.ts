/** A source's failure, in words safe to log: never the URL (AirNow's key rides in its query). */
export class FeedError extends Error {
  override name = 'FeedError';
}

/** The largest body a feed may send (a subway feed is a few hundred KiB). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** GET with the schedule's abort signal (time-out and shutdown); a non-2xx answer is a FeedError. */
export async function getBody(url: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers, redirect: 'follow' });
  } catch (error) {
    if (signal.aborted) throw new FeedError('timed out or stopped');
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new FeedError(`unreachable${cause ? ` (${cause})` : ''}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new FeedError(`answered ${response.status}`);
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > MAX_BODY_BYTES) throw new FeedError('body too large');
  return body;
}

export async function getJson(url: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<unknown> {
  const body = await getBody(url, signal, { accept: 'application/json', ...headers });
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new FeedError('malformed JSON');
  }
}
