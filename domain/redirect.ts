/**
 * Where a `redirect` (spec section 2, read at start) or a notification link (section 7, the
 * notification redirect log) may send someone: a page of this portal, never another site. The value
 * is resolved as a browser would (backslashes, encoded slashes, schemes), so `//evil.example`,
 * `/\evil.example` and `https://evil.example` are all refused. API and login paths are refused too.
 * Returns the normalised path with its query and fragment, or null.
 */
const PORTAL_ORIGIN = 'https://portal.invalid';

export function portalPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.length > 2000 || /[\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PORTAL_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PORTAL_ORIGIN) return null;
  const path = url.pathname;
  if (path.startsWith('/api/') || path.startsWith('/codec/') || path.startsWith('//')) return null;
  return `${path}${url.search}${url.hash}`;
}
