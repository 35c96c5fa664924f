/**
 * Reads the calls of spec section 7 ("The calls it makes") as routes.tsv-style lines
 * `METHOD /api/path/:param`. The text names calls in a few forms, each read as written:
 * - `POST login`, `GET /api/Lookups`: the method is stated;
 * - `DocumentReviewReason (PUT)`, `applytenantsignaturetotic/{id} (PUT; ...)`: stated in brackets;
 * - `profile (create and get)`, `member/{id} (delete)`, `(add or update)`: the brackets name the
 *   operations (create, add and update are posts, as the spec's client posts its updates);
 * - a bare name: a read (get..., fetch..., check..., timeline, slots, status, Preview, lists, a bare
 *   {id}) is a GET, a Delete... is a DELETE, anything else a POST.
 * Paths are relative to the group's `(/api/Prefix)`, or to the last absolute `/api/X/...` path of
 * the paragraph. A handful of phrasings that list several calls at once are expanded below; each
 * phrase must appear verbatim in the spec, so the table cannot drift from the text.
 */
export interface SpecCall {
  group: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
}

type Method = SpecCall['method'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** Phrases that name several calls at once, rewritten as one call per item. */
export const EXPANSIONS: Record<string, string> = {
  'create and delete-by-id for BankAccounts, RetirementAccounts, InvestmentAssets, RealEstateAssets, OtherAssets, DisposedAssets, TrustAssets, LifeInsuranceAssets, EBTCards':
    ['BankAccounts', 'RetirementAccounts', 'InvestmentAssets', 'RealEstateAssets', 'OtherAssets', 'DisposedAssets', 'TrustAssets', 'LifeInsuranceAssets', 'EBTCards']
      .map((k) => `${k} (create), ${k}/{id} (delete)`)
      .join(', '),
  'flag updates UpdateAssetFlag': 'UpdateAssetFlag',
  'delete by id': '{id} (delete)',
  'SaveAiExtractedData(Multiple)': 'SaveAiExtractedData, SaveAiExtractedDataMultiple',
  'rental-assistance and AdditionalPreferences create and update (POST for create or update rental assistance)':
    'rental-assistance (create and update), AdditionalPreferences (create and update)',
  'GET root': 'GET @root',
  ' and validateotp/otp/{x} (GET)': ', validateotp/otp/{x} (GET)',
  ' and /api/Translator/batch': ', /api/Translator/batch',
  // The support-ticket calls name no prefix; the portal serves them under /api/SupportTicket.
  'POST CreateSupportTicket': 'POST /api/SupportTicket/CreateSupportTicket',
  // Nor do the ambassador's; the portal serves them under /api/Ambassador.
  'getambessdordashboard/{id},': '/api/Ambassador/getambessdordashboard/{id},',
};

const READS = /^(get|fetch|check|emailverified|timeline|slots|status|validateotp|published-|filtered-|my-favorites|Preview|generatepublicurl|active-chats|Applicant)/i;

/** Splits on `;` and `,` outside brackets. */
function splitItems(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if ((ch === ',' || ch === ';') && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

function methodsFromHints(hints: string[]): Method[] {
  const stated = hints.flatMap((h) => METHODS.filter((m) => new RegExp(`\\b${m}\\b`).test(h)));
  if (stated.length) return [...new Set(stated)];
  const words = hints.join(' ').toLowerCase();
  const out = new Set<Method>();
  if (/\b(create|add|update)\b/.test(words)) out.add('POST');
  if (/\bget\b/.test(words)) out.add('GET');
  if (/\bdelete\b/.test(words)) out.add('DELETE');
  return [...out];
}

function inferMethod(relative: string): Method {
  const name = relative.split('/').find((s) => s && !s.startsWith('{')) ?? '';
  if (!name || READS.test(name)) return 'GET';
  if (/^delete/i.test(name)) return 'DELETE';
  return 'POST';
}

const toRoute = (path: string) => path.replace(/\{(\w+)\}/g, ':$1').replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');

export function readSection7Calls(spec: string): SpecCall[] {
  const start = spec.indexOf('## 7.');
  const end = spec.indexOf('## 8.', start);
  if (start < 0 || end < 0) throw new Error('section 7 not found in the spec');
  for (const phrase of Object.keys(EXPANSIONS)) if (!spec.slice(start, end).includes(phrase)) throw new Error(`phrase no longer in the spec: ${phrase}`);
  const calls: SpecCall[] = [];
  for (const line of spec.slice(start, end).split('\n')) {
    const head = /^\*\*([^*(]+?)\s*(?:\((\/api\/[^)]+)\))?:\*\*\s*(.*)$/.exec(line.trim());
    if (!head) continue;
    const group = head[1]!.trim();
    let base = head[2] ?? '';
    let body = head[3]!;
    for (const [phrase, replacement] of Object.entries(EXPANSIONS)) body = body.split(phrase).join(replacement);
    // Payloads (`send-otp {userId}`) are not path parameters; sentences about something else are dropped.
    body = body.replace(/\s\{[^}]*\}(?!\/)/g, '');
    const sentences = body.split(/\.(?:\s+|$)/).filter((s) => s.trim() && !/not shown|^\s*The\s/.test(s));
    for (const item of splitItems(sentences.join('; '))) {
      const hints = [...item.matchAll(/\(([^)]*)\)/g)].map((m) => m[1]!);
      let text = item.replace(/\([^)]*\)/g, ' ').trim();
      let stated: Method | undefined;
      const m = /^(GET|POST|PUT|DELETE)\s+(.*)$/.exec(text);
      if (m) {
        stated = m[1] as Method;
        text = m[2]!.trim();
      }
      if (!text || /\s/.test(text)) continue;
      if (text.startsWith('api/')) text = `/${text}`;
      let relative = text;
      if (text.startsWith('/api/')) {
        base = text.split('/').slice(0, 3).join('/');
        relative = text.slice(base.length);
      }
      if (relative === '@root') relative = '';
      const methods = stated ? [stated] : methodsFromHints(hints);
      const path = toRoute(`${base}/${relative}`);
      for (const method of methods.length ? methods : [inferMethod(relative)]) calls.push({ group, method, path });
    }
  }
  return calls;
}
