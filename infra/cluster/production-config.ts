/**
 * The production configuration (infra/production/config.yaml: the ConfigMap's `data` and the Secret's
 * `stringData`) read as environment variables. `npm run start:cluster` runs on these very settings and
 * replaces only addresses and secrets (infra/cluster/environment.ts), so the two shapes cannot drift.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export const PRODUCTION_CONFIG = new URL('../production/config.yaml', import.meta.url).pathname;

interface KubernetesObject {
  kind?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** Every variable the production config sets, ConfigMap and Secret together. */
export function productionSettings(file = PRODUCTION_CONFIG): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const object = doc.toJSON() as KubernetesObject | null;
    const values = object?.kind === 'Secret' ? object.stringData : object?.kind === 'ConfigMap' ? object.data : undefined;
    for (const [name, value] of Object.entries(values ?? {})) settings[name] = String(value);
  }
  return settings;
}
