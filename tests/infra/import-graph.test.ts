/**
 * The product's modules form layers that import downwards only, with no loops (README "Layout"):
 * domain ← workflows, activities ← worker, api; infra serves activities, worker and api; web imports
 * domain only. ESLint's `no-restricted-imports` (eslint.config.mjs) names the rule at the import;
 * this test reads every import of every product file as the compiler sees it, type-only ones and
 * re-exports included, so a loop through any number of files, or an import written in a form a
 * lint pattern does not match, still fails, naming the files.
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(new URL('../../', import.meta.url).pathname);
const PRODUCT = ['domain', 'workflows', 'activities', 'worker', 'api', 'infra', 'web/src'];

function sourceFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, found);
    else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The file a relative specifier names, as the bundler resolves it (`./x` is x.ts, x.tsx or x/index.ts). */
function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

interface Edge {
  to: string;
  typeOnly: boolean;
}

/** Every relative import of a file: static imports, re-exports and `import()`, type-only ones flagged. */
function importsOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: Edge[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    const to = resolveImport(file, specifier);
    if (!to) throw new Error(`${relative(ROOT, file)}: cannot resolve '${specifier}'`);
    edges.push({ to, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const allTypes = !!clause && (clause.isTypeOnly || (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const files = PRODUCT.flatMap((folder) => sourceFiles(join(ROOT, folder)));
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const name = (file: string) => relative(ROOT, file);

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
function loops(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(v, Math.min(low.get(v)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v)!, index.get(to)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)!.some((e) => e.to === v)) found.push(component);
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return found;
}

/** One concrete loop inside a component, as the import chain a reader can follow (a → b → … → a). */
function chainIn(component: string[]): string {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const seen = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const { to } of graph.get(v)!) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let w: string | null = v; w && w !== start; w = seen.get(w) ?? null) path.splice(1, 0, w);
        return [...path, start].map(name).join(' → ');
      }
      if (!seen.has(to)) {
        seen.set(to, v);
        queue.push(to);
      }
    }
  }
  return component.map(name).join(', ');
}

/** The layer of a product file: its top folder (web/src counts as web). */
const layerOf = (file: string) => (name(file).startsWith('web/') ? 'web' : name(file).split('/')[0]!);

/** The web app's locale files: data every layer may read (every user-visible sentence once, letters and notices included). */
const isLocale = (file: string) => /^web\/src\/i18n\/locales\/[a-z]+\/[A-Za-z-]+\.json$/.test(name(file));

/**
 * What each layer may import of ours. Workflows import activities for their types only (the SDK's
 * `proxyActivities<typeof activities>`); the API imports a workflow's messages (its Update and Query
 * definitions) and the case search attributes a starter gives a run, never workflow code.
 */
const MAY_IMPORT: Record<string, (to: string, typeOnly: boolean) => boolean> = {
  domain: (to) => layerOf(to) === 'domain',
  workflows: (to, typeOnly) => ['domain', 'workflows'].includes(layerOf(to)) || (layerOf(to) === 'activities' && typeOnly),
  activities: (to) => ['domain', 'infra', 'activities'].includes(layerOf(to)),
  infra: (to) => ['domain', 'infra'].includes(layerOf(to)),
  worker: (to) => !['api', 'web'].includes(layerOf(to)),
  api: (to) => ['domain', 'infra', 'api'].includes(layerOf(to)) || /^workflows\/(.+\.messages|case\/messages|case\/search)\.ts$/.test(name(to)),
  web: (to) => ['domain', 'web'].includes(layerOf(to)),
};

describe('import graph of the product', () => {
  it('reads every product file and its imports', () => {
    // A walk that found nothing would pass every check below.
    expect(files.length).toBeGreaterThan(500);
    expect([...graph.values()].reduce((n, edges) => n + edges.length, 0)).toBeGreaterThan(2000);
  });

  it('has no import loop (type-only imports included)', () => {
    expect(loops().map(chainIn)).toEqual([]);
  });

  it('imports downwards only, by layer', () => {
    const upward: string[] = [];
    for (const [file, edges] of graph) {
      const may = MAY_IMPORT[layerOf(file)];
      if (!may) throw new Error(`${name(file)}: no layer rule for its folder`);
      for (const edge of edges) if (!isLocale(edge.to) && !may(edge.to, edge.typeOnly)) upward.push(`${name(file)} → ${name(edge.to)}${edge.typeOnly ? ' (type only)' : ''}`);
    }
    expect(upward).toEqual([]);
  });
});
