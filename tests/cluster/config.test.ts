/**
 * One configuration for both shapes: every variable the configuration schemas accept is either set
 * in the production configuration (infra/production/config.yaml, which `npm run start:cluster` runs
 * on too) or documented with its default in the README's Configuration table. A new setting that is
 * neither fails here, so an operator never meets a setting only the code knows about.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigSchema } from '../../infra/config';
import { NotificationConfigSchema } from '../../infra/notifications/config';
import { productionSettings } from '../../infra/cluster/production-config';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Every schema that reads process.env, by where it lives. */
const SCHEMAS: Record<string, z.ZodObject> = {
  'infra/config.ts': ConfigSchema,
  'infra/notifications/config.ts': NotificationConfigSchema,
};

/** The README's Configuration section, table rows only. */
function configurationRows(): string[] {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration'), readme.indexOf('\n## ', readme.indexOf('\n## Configuration') + 1));
  return section.split('\n').filter((line) => line.startsWith('| `'));
}

function defaultOf(schema: z.ZodType): unknown {
  return schema instanceof z.ZodDefault ? (schema.def.defaultValue as unknown) : undefined;
}

describe('the configuration an operator sees', () => {
  const production = productionSettings();
  const rows = configurationRows();

  it('every variable a schema accepts is set in infra/production/config.yaml or documented with its default in the README', () => {
    const missing: string[] = [];
    for (const [file, schema] of Object.entries(SCHEMAS)) {
      for (const [name, field] of Object.entries(schema.shape)) {
        if (name in production) continue;
        const row = rows.find((r) => r.includes(`\`${name}\``));
        if (!row) {
          missing.push(`${name} (${file}): neither in the production config nor in the README's Configuration table`);
          continue;
        }
        const value = defaultOf(field as z.ZodType);
        if (value !== undefined && value !== '' && !row.includes(String(value))) {
          missing.push(`${name} (${file}): its README row does not give its default ${JSON.stringify(value)}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every variable the production config sets is one a schema accepts (no misspelt setting is silently ignored)', () => {
    const known = new Set(Object.values(SCHEMAS).flatMap((schema) => Object.keys(schema.shape)));
    expect(Object.keys(production).filter((name) => !known.has(name))).toEqual([]);
  });

  it('the production config names mail, links, SMS, metrics and the dashboard feeds', () => {
    for (const name of ['SMTP_URL', 'PUBLIC_BASE_URL', 'MAIL_FROM', 'SMS_DIR', 'METRICS_PORT', 'WORKER_METRICS_ADDRESS', 'FEED_NWS_URL', 'FEED_MTA_URL', 'FEED_NEWS_URL']) {
      expect(production, name).toHaveProperty(name);
    }
  });
});
