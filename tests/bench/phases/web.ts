/**
 * Initial JS per public page: the production build's own check (web/build/initial-js-report.ts,
 * which prints the same after `npm run build:web`), run on an in-memory build so web/dist is untouched.
 */
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { INITIAL_JS_BUDGET_BYTES, measureInitialJs, type PageFigure } from '../../../web/build/initial-js-report';

export { INITIAL_JS_BUDGET_BYTES };

export async function measureWeb(): Promise<PageFigure[]> {
  let figures: PageFigure[] = [];
  const capture: Plugin = {
    name: 'bench-initial-js',
    apply: 'build',
    generateBundle(_options, bundle) {
      figures = measureInitialJs(bundle, (id) => this.getModuleInfo(id)?.code ?? null);
    },
  };
  await build({
    configFile: fileURLToPath(new URL('../../../web/vite.config.ts', import.meta.url)),
    logLevel: 'warn',
    build: { write: false },
    plugins: [capture],
  });
  return figures;
}
