/**
 * Finds or builds every external binary the tests need, printing where each is:
 * `npx tsx tests/setup/tools.ts all|temporal|minio|test-server|temporal-server|temporal-sql-tool|temporal-ui-server` (CI runs `all` before the tests).
 * Builds are cached outside the repository and take a lock, so parallel runs build each once.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findTemporalCli } from '../../infra/tools/temporal-cli';
import { findMinio } from '../../infra/tools/minio';
import { findTemporalServer, findTemporalSqlTool, findTemporalUiServer } from '../../infra/tools/temporal-server';
import { findTemporalTestServer } from './temporal-test-server';

const TOOLS: Record<string, () => Promise<string>> = {
  temporal: findTemporalCli,
  minio: findMinio,
  'test-server': findTemporalTestServer,
  // The cluster tests' Temporal server, its schema tool and its Web UI server (npm run start:cluster).
  'temporal-server': findTemporalServer,
  'temporal-sql-tool': findTemporalSqlTool,
  'temporal-ui-server': findTemporalUiServer,
};

async function main(argv: string[]): Promise<void> {
  const target = argv[0] ?? 'all';
  const names = target === 'all' ? Object.keys(TOOLS) : [target];
  for (const name of names) {
    const find = TOOLS[name];
    if (!find) {
      process.stderr.write(`usage: tsx tests/setup/tools.ts all|${Object.keys(TOOLS).join('|')}\n`);
      process.exit(2);
    }
    // Sequential on purpose: each build uses all cores.
    const found = await find();
    process.stdout.write(`${name}: ${found}\n`);
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`tools: ${message}\n`);
    process.exit(1);
  });
}
