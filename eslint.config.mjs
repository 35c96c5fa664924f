// Lint rules that guard what the type checker cannot: promises nobody awaits, workflow code that
// would stop being deterministic, and web features reaching into each other's insides.
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
  // The manager's case file is one panel embedded in the lease-up, recertification and relocation pages (issue 12).
  'case-file/components/case-file-panel',
];
const escape = (text) => text.replaceAll('.', '\\.');
const sharedPattern = sharedFeatureModules.map(escape).join('|');

export default tseslint.config(
  { ignores: ['node_modules/', 'web/dist/', '.data/', 'tests/.artifacts/', '**/*.mjs', '**/*.cjs'] },
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
          ],
        },
      ],
    },
  },
);
