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
  }
}

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
