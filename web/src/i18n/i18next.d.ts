import 'i18next';
import type { EnResources } from './resources';

// Typed keys: `t('detail.title')` fails to compile when the English resource lacks the key.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: EnResources;
  }
}
