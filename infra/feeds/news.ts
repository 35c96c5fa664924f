import { parseFeed } from '@rowanmanning/feed-parser';
import type { NewsData } from '../../domain/feeds';
import { FeedError, getBody } from './http';

/** A news feed in RSS 2.0 or Atom, parsed by @rowanmanning/feed-parser (both formats, lenient). */
export async function newsFeed(url: string, signal: AbortSignal, limit = 6): Promise<NewsData> {
  const body = await getBody(url, signal, { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8' });
  let feed;
  try {
    feed = parseFeed(body.toString('utf8'));
  } catch {
    throw new FeedError('malformed feed');
  }
  const items = feed.items
    .filter((item) => item.title)
    .slice(0, limit)
    .map((item) => ({
      title: item.title!.trim(),
      // Only web links are shown (no javascript: or data: URLs from a feed).
      url: item.url && /^https?:\/\//i.test(item.url) ? item.url : null,
      publishedAt: item.published ? item.published.toISOString() : item.updated ? item.updated.toISOString() : null,
    }));
  if (items.length === 0 && !feed.title) throw new FeedError('feed without items');
  return { title: feed.title ?? '', items };
}
