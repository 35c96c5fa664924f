import { z } from 'zod';
import { FORM_MESSAGES } from './form-messages';

/**
 * The formats of the values that travel in URLs (path identifiers, query numbers), once for the API's checks and its
 * OpenAPI document alike: a route's param schema is built from these, so what the document says a
 * path segment may be is exactly what the route lets through to the database. Each pattern is
 * anchored and ASCII-only, so a length counted in UTF-16 units (zod) and one counted in code points
 * (JSON Schema) agree.
 */

/** A row id: any 8-4-4-4-12 hexadecimal UUID, either case (PostgreSQL's `uuid` reads every such text). */
export const UUID_PATTERN = '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$';
export const idOf = (message: string = FORM_MESSAGES.invalidId) => z.string().guid(message);
export const Id = idOf();

/** A temporary-unit offer of a relocation: `<relocation id>.<n>`, so a decline by offer alone finds its case. */
export const OFFER_ID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\.[0-9]{1,3}$';
export const OfferId = z.string().regex(new RegExp(OFFER_ID_PATTERN), 'Invalid offer id');
/** The relocation an offer id names (its UUID part). */
export const relocationOfOffer = (offerId: string): string => offerId.slice(0, offerId.lastIndexOf('.'));

/**
 * A one-time link token (password reset, e-mail verification): base64url, as issued, with room for
 * longer ones. Under 100 characters: the router answers 414 for a longer path segment.
 */
export const LINK_TOKEN_PATTERN = '^[A-Za-z0-9_-]{20,99}$';
export const LinkToken = z.string().regex(new RegExp(LINK_TOKEN_PATTERN), 'Invalid link');

/** A signed document link: base64url of its claims and their MAC (52 bytes). */
export const DOCUMENT_LINK_PATTERN = '^[A-Za-z0-9_-]{70,80}$';
export const DocumentLinkToken = z.string().regex(new RegExp(DOCUMENT_LINK_PATTERN), 'Invalid link');

/** A transit feed or stop id as in the MTA's static GTFS (`ace`, `117`, `A27N`). */
export const GTFS_ID_PATTERN = '^[A-Za-z0-9_-]{1,20}$';
export const GtfsId = z.string().regex(new RegExp(GTFS_ID_PATTERN), 'Invalid transit id');

/**
 * The router refuses a path segment over 100 characters (414): a free-text segment (a username or
 * e-mail address) is documented and checked below that, so a value just over the documented
 * length is the envelope's 400 like any other bad input.
 */
export const PATH_TEXT_MAX = 99;

/** Every path format above, by name: the OpenAPI test checks each path parameter has one of them (or an enum). */
export const PATH_ID_PATTERNS = { uuid: UUID_PATTERN, offerId: OFFER_ID_PATTERN, linkToken: LINK_TOKEN_PATTERN, documentLink: DOCUMENT_LINK_PATTERN, gtfsId: GTFS_ID_PATTERN } as const;

/** A number in a query string as clients write one (`-1.5`, `1e-05`): no blanks, hex or empty text that `Number()` would also read. */
const QUERY_NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
export const queryNumber = (min: number, max: number) =>
  z
    .preprocess((v) => (typeof v === 'string' && QUERY_NUMBER.test(v) ? Number(v) : v), z.number().min(min).max(max))
    // The preprocessing has no JSON Schema of its own: the document says what gets through it.
    .meta({ type: 'number', minimum: min, maximum: max });
