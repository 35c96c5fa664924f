import fp from 'fastify-plugin';

export interface RouteEntry {
  method: string;
  url: string;
  /** Names of path parameters and of the query's schema keys, when the route declares them. */
  params: string[];
  query: string[];
  /** Top-level keys of the body's schema (empty when unknown). */
  body: string[];
  hasBody: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the API: tests generate requests from it (odd input, secrets in logs). */
    routeList: RouteEntry[];
    /** The methods served at a concrete path (`/api/x/123`), HEAD with GET; empty when no route has the path. */
    methodsAt(path: string): string[];
  }
}

/** A route's URL as a pattern of concrete paths: each `:param` one segment. */
const patternOf = (url: string) => new RegExp(`^${url.replace(/\/$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`);

const keysOf = (schema: unknown): string[] => {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (shape) return Object.keys(shape);
  const def = (schema as { def?: { innerType?: unknown; in?: unknown; left?: unknown; right?: unknown; schema?: unknown } } | undefined)?.def;
  if (!def) return [];
  const inner = def.innerType ?? def.in ?? def.schema;
  if (inner) return keysOf(inner);
  return [...new Set([...keysOf(def.left), ...keysOf(def.right)])];
};

export const routeListPlugin = fp(
  async (app) => {
    const routes: RouteEntry[] = [];
    app.decorate('routeList', routes);
    let patterns: { pattern: RegExp; params: number; methods: Set<string> }[] | null = null;
    app.decorate('methodsAt', (path: string) => {
      // Compiled once every route is registered (the first call comes from a request).
      if (!patterns) {
        const byUrl = new Map<string, Set<string>>();
        for (const r of routes) byUrl.set(r.url, (byUrl.get(r.url) ?? new Set()).add(r.method));
        patterns = [...byUrl].map(([url, methods]) => ({ pattern: patternOf(url), params: (url.match(/:/g) ?? []).length, methods }));
      }
      // The most specific routes only: `/x/create` is the static route's address, not an id of `/x/:id`
      // (whose ids have a format `create` never fits).
      const matching = patterns.filter((p) => p.pattern.test(path));
      const fewest = Math.min(...matching.map((p) => p.params));
      const methods = new Set(matching.filter((p) => p.params === fewest).flatMap((p) => [...p.methods]));
      if (methods.has('GET')) methods.add('HEAD');
      return [...methods].sort();
    });
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push({
          method,
          url: route.url,
          params: [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!),
          query: keysOf(route.schema?.querystring),
          body: keysOf(route.schema?.body),
          hasBody: Boolean(route.schema?.body),
        });
      }
    });
  },
  { name: 'route-list' },
);
