// Lint: typescript-eslint recommended rules plus Nx module boundaries, so the layering
// described in README.md (apps -> feature -> data/domain -> contracts/util) is enforced.
import nx from '@nx/eslint-plugin';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Which layers each layer may use (docs/architecture.md "Layout"): apps -> feature -> data/domain -> contracts/util.
const layers = {
  'type:app': ['type:feature', 'type:data', 'type:domain', 'type:contracts', 'type:util'],
  'type:feature': ['type:feature', 'type:data', 'type:domain', 'type:contracts', 'type:util'],
  'type:data': ['type:data', 'type:domain', 'type:contracts', 'type:util'],
  'type:domain': ['type:domain', 'type:contracts', 'type:util'],
  // Test helpers bring up real Kafka and PostgreSQL; only tests import them. One may build on
  // another (tools/alertmanager supervises its process with @alert-ingestion/local-infra).
  'type:test-util': ['type:test-util', 'type:infra', 'type:data', 'type:domain', 'type:contracts', 'type:util'],
  // Local Kafka and PostgreSQL servers for `npm start`, the tests and the benchmarks; no service uses them.
  'type:infra': ['type:infra', 'type:data', 'type:contracts', 'type:util'],
  'type:contracts': ['type:contracts', 'type:util'],
  'type:util': ['type:util', 'type:contracts'],
};
const scopes = {
  'scope:gateway': ['scope:gateway', 'scope:shared'],
  'scope:processor': ['scope:processor', 'scope:shared'],
  'scope:config': ['scope:config', 'scope:shared'],
  // The web console talks to the services over HTTP only; its end-to-end specs use the shared test harness.
  'scope:console': ['scope:console', 'scope:shared'],
  'scope:shared': ['scope:shared'],
};

/** The module-boundary rule; `testOnly` lists the tags that test code may use on top of its layer's. */
function moduleBoundaries(testOnly = []) {
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: [
        ...Object.entries(layers).map(([sourceTag, tags]) => ({ sourceTag, onlyDependOnLibsWithTags: [...tags, ...testOnly] })),
        ...Object.entries(scopes).map(([sourceTag, tags]) => ({ sourceTag, onlyDependOnLibsWithTags: tags })),
      ],
    },
  ];
}

export default tseslint.config(
  { ignores: ['*.config.js', '**/node_modules/**', '**/dist/**', '**/generated/**', '.kafka/**', '.data/**', '.nx/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    plugins: { '@nx': nx, 'import-x': importX },
    // Imports resolve as the compiler resolves them (tsconfig paths), so a cycle through a library's barrel is seen too.
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.base.json', 'apps/console/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': moduleBoundaries(),
      // No import cycle anywhere, between files as between libraries (which the module-boundary rule already refuses).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Specs run against real PostgreSQL and Kafka: they may use the test harness and the local servers.
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(['type:test-util', 'type:infra']) },
  },
  {
    // The web console (React): the rules of hooks, and the React Compiler's checks of what hooks may do.
    files: ['apps/console/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    // The console's modules reach another folder through the `@console/` alias of its src (apps/console/README.md), never by climbing.
    files: ['apps/console/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../*'], message: 'Import from another folder of the console as @console/<path under src>.' }] }] },
  },
  {
    // Plain Node scripts (build, Prisma generation) run before anything is compiled, so they are CommonJS.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'tools/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
