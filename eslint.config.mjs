// Lint rules that guard what the type checker cannot: promises nobody awaits, workflow code that
// would stop being deterministic, imports that run up the layers, and web features reaching into
// each other's insides.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** Web features that other features use today; each is a candidate for `web/src/components`. */
const sharedFeatureModules = [
  'auth/hooks/use-session',
  'auth/components/otp-form',
  'lease-up/components/apply-dialog',
  'favorites/components/favorite-button',
  'opportunities/components/opportunity-list',
  'documents/api/documents',
  'profile/components/confirm-dialog',
  'profile/components/field-error',
  // The manager's case file is one panel embedded in the lease-up, recertification and relocation pages.
  'case-file/components/case-file-panel',
];
const escape = (text) => text.replaceAll('.', '\\.');
const sharedPattern = sharedFeatureModules.map(escape).join('|');

/**
 * The layers (README "Layout"): domain ← workflows, activities ← worker, api; infra serves
 * activities, worker and api; web imports domain only. Each folder's imports of a folder above it
 * are refused here at the import; tests/infra/import-graph.test.ts checks the same on the resolved
 * graph (and that it has no loop). The web app's locale files are data every layer may read: they
 * hold every user-visible sentence once, letters and notices included.
 */
/** Imports that climb out of the folder to one of `folders` (the locale files excepted). */
const above = (folders, message) => ({ regex: `^(\\.\\./)+(${folders.join('|')})(/(?!src/i18n/locales/)|$)`, message });
const layerPatterns = {
  activities: [above(['workflows', 'worker', 'api', 'web'], 'Activities import domain, infra and activities only (the worker registers them; workflows call them by proxy).')],
  infra: [above(['activities', 'workflows', 'worker', 'api', 'web'], 'infra serves the layers above it and imports domain and infra only.')],
  worker: [above(['api', 'web'], 'The worker imports anything but the API and the web app.')],
  api: [
    {
      regex: '^(\\.\\./)+workflows/(?!([a-z-]+\\.messages|case/messages|case/search)$)',
      message: 'The API reaches a workflow through its messages (workflows/*.messages.ts) and the case search attributes only, never its code.',
    },
    above(['activities', 'worker', 'web'], 'The API imports domain, infra and api (read-model writers are in infra/db/repositories).'),
  ],
};
/** The repository's other top folders, named after climbing out of web/src (web/src has none of them). */
const webPatterns = [
  { regex: '^(\\.\\./){3,}(api|activities|workflows|worker|infra|tests)(/|$)', message: 'The web app imports domain only (through web/src/lib/domain).' },
];
const restrictImports = (patterns, paths = []) => ({ 'no-restricted-imports': ['error', { paths, patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/', 'web/dist/', '.data/', 'tests/.artifacts/', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Every promise is awaited, returned, or explicitly let go with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-control-regex': 'off',
    },
  },
  {
    // The plain-JavaScript scripts (the test runner, the log scan, this file) are outside the
    // TypeScript project: linted without type information, as Node modules.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  // Imports run down the layers only (see `layerPatterns`).
  { files: ['domain/**/*.ts'], rules: restrictImports([{ regex: '^\\.\\./', message: 'domain imports nothing of ours but domain.' }]) },
  { files: ['activities/**/*.ts'], rules: restrictImports(layerPatterns.activities) },
  { files: ['infra/**/*.ts'], rules: restrictImports(layerPatterns.infra) },
  { files: ['worker/**/*.ts'], rules: restrictImports(layerPatterns.worker) },
  { files: ['api/**/*.ts'], rules: restrictImports(layerPatterns.api) },
  { files: ['web/src/**/*.{ts,tsx}'], rules: restrictImports(webPatterns) },
  {
    // Workflow code runs in Temporal's deterministic sandbox and is replayed from history: no I/O,
    // no Node modules, no clients, no activities' implementations (types only), no real clocks or timers
    // outside the SDK's.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code is deterministic: no Node built-ins (use an activity).' })),
          patterns: [
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Workflows call activities through proxyActivities; import their types only.' },
            { group: ['**/infra/**', '**/api/**', 'pg', 'kysely', '@temporalio/client', '@temporalio/activity', '@temporalio/worker', '@aws-sdk/*', 'nodemailer'], message: 'Workflow code is deterministic: no I/O (use an activity).' },
            { group: ['**/worker', '**/worker/**', '**/web/**'], message: 'Workflows import domain and workflows only.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'require', 'fetch', 'setInterval', 'setImmediate', 'crypto', 'performance', 'XMLHttpRequest', 'WebSocket'].map((name) => ({
          name,
          message: 'Workflow code is deterministic: use the Temporal SDK (sleep, condition, uuid4) or an activity.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'crypto', property: 'randomUUID', message: 'Use uuid4() from @temporalio/workflow.' },
      ],
    },
  },
  {
    // The worker preloads workflows/ (with the domain/ it imports) once and every workflow shares it
    // (worker/create-worker.ts): a module-level variable would be shared by every case, and a dynamic
    // import would split the shared module (tests/workflows/entry.test.ts).
    files: ['workflows/**/*.ts', 'domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program > VariableDeclaration[kind!="const"], Program > ExportNamedDeclaration > VariableDeclaration[kind!="const"]',
          message: 'Every workflow shares this module: no module-level variables (keep state in the run).',
        },
        { selector: 'ImportExpression', message: 'The worker shares workflows/ as one preloaded module: import statically.' },
      ],
    },
  },
  {
    // A web feature is used by the app's routes, not by another feature; the few shared pieces are listed above.
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(?!(${sharedPattern})$)[a-z-]+/(api|components|hooks|routes|lib)/`,
              message: 'Web features do not import each other; move the shared piece to web/src/components or web/src/lib.',
            },
            ...webPatterns,
          ],
        },
      ],
    },
  },
);
