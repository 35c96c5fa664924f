import { gzipSync } from 'node:zlib';
import type { Logger, Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** Issue 11 goal: the initial JavaScript of each public page, gzip, fonts excluded. */
export const INITIAL_JS_BUDGET_BYTES = 150 * 1024;

/** The public pages of spec section 2 and the route module each one renders. */
export const PUBLIC_PAGES = [
  { route: '/ and /home', module: 'features/landing/routes/landing.tsx' },
  { route: '/public/opportunities', module: 'features/opportunities/routes/opportunities.tsx' },
  { route: '/public/opportunity/{id}', module: 'features/opportunities/routes/opportunity.tsx' },
] as const;

const STARTUP_NAMESPACES = ['common', 'sideMenu'];
/** `useTranslation('ns')` and `useTranslation(['a', 'b'])` in a module's code: the texts it loads. */
const NAMESPACE_USE = /useTranslation\)?\(\s*(\[[^\]]*\]|"[^"]*"|'[^']*')/g;

export interface PageFigure {
  route: string;
  files: string[];
  gzipBytes: number;
}

/**
 * Adds up, per public page, the gzip size of what the browser loads before the page is usable: the
 * entry and its static imports, the page's chunk and its static imports, and the English texts of
 * the namespaces the app and the page load (useTranslation calls found in their modules).
 */
export function measureInitialJs(bundle: OutputBundle, sourceOf: (id: string) => string | null): PageFigure[] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const gzip = new Map<string, number>();
  const size = (c: OutputChunk) => gzip.get(c.fileName) ?? gzip.set(c.fileName, gzipSync(c.code, { level: 9 }).length).get(c.fileName)!;
  const closure = (start: OutputChunk, into: Set<OutputChunk>) => {
    if (into.has(start)) return;
    into.add(start);
    for (const name of start.imports) {
      const next = byName.get(name);
      if (next) closure(next, into);
    }
  };
  const namespacesOf = (set: Set<OutputChunk>) => {
    const found = new Set(STARTUP_NAMESPACES);
    for (const chunk of set) {
      for (const id of Object.keys(chunk.modules)) {
        const code = sourceOf(id) ?? '';
        for (const m of code.matchAll(NAMESPACE_USE)) for (const ns of m[1]!.matchAll(/["']([\w]+)["']/g)) found.add(ns[1]!);
      }
    }
    return found;
  };
  // The app's entry (index.html); the texts' chunks are emitted as entries too (build/locale-chunks.ts).
  const entry = chunks.find((c) => c.isEntry && !c.facadeModuleId?.includes('/locales/'));
  if (!entry) throw new Error('no entry chunk');
  return PUBLIC_PAGES.map(({ route, module }) => {
    const page = chunks.find((c) => c.facadeModuleId?.endsWith(module));
    if (!page) throw new Error(`no chunk for ${module}`);
    const set = new Set<OutputChunk>();
    closure(entry, set);
    closure(page, set);
    for (const ns of namespacesOf(set)) {
      const texts = chunks.find((c) => c.facadeModuleId?.endsWith(`/locales/en/${ns}.json`));
      if (texts) closure(texts, set);
    }
    const files = [...set].map((c) => c.fileName).sort();
    return { route, files, gzipBytes: [...set].reduce((sum, c) => sum + size(c), 0) };
  });
}

/** Prints the initial JS of each public page beside the goal after every production build. */
export function initialJsReport(): Plugin {
  let logger: Logger | undefined;
  let figures: PageFigure[] = [];
  return {
    name: 'portal-initial-js-report',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
    },
    generateBundle(_options, bundle) {
      figures = measureInitialJs(bundle, (id) => this.getModuleInfo(id)?.code ?? null);
    },
    closeBundle() {
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const lines = figures.map((f) => `  ${f.gzipBytes <= INITIAL_JS_BUDGET_BYTES ? 'ok  ' : 'OVER'} ${f.route.padEnd(26)} ${kb(f.gzipBytes).padStart(9)} gzip in ${f.files.length} files`);
      logger?.info(`\ninitial JS per public page (goal ${kb(INITIAL_JS_BUDGET_BYTES)} gzip, fonts excluded):\n${lines.join('\n')}`);
    },
  };
}
