// Lint: typescript-eslint recommended rules plus Nx module boundaries, so the layering
// described in README.md (apps -> feature -> data/domain -> contracts/util) is enforced.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const dependsOn = (...tags) => tags;

export default tseslint.config(
  { ignores: ['*.config.js', '**/node_modules/**', '**/dist/**', '**/generated/**', '.kafka/**', '.data/**', '.nx/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: dependsOn('type:test-util', 'type:feature', 'type:data', 'type:domain', 'type:contracts', 'type:util') },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: dependsOn('type:test-util', 'type:feature', 'type:data', 'type:domain', 'type:contracts', 'type:util') },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: dependsOn('type:test-util', 'type:data', 'type:domain', 'type:contracts', 'type:util') },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: dependsOn('type:domain', 'type:contracts', 'type:util') },
            // Test helpers bring up real Kafka and PostgreSQL; only tests import them. One may build on
            // another (tools/alertmanager supervises its process with @alert-ingestion/testing).
            { sourceTag: 'type:test-util', onlyDependOnLibsWithTags: dependsOn('type:test-util', 'type:data', 'type:domain', 'type:contracts', 'type:util') },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: dependsOn('type:contracts', 'type:util') },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: dependsOn('type:util', 'type:contracts') },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: dependsOn('scope:gateway', 'scope:shared') },
            { sourceTag: 'scope:processor', onlyDependOnLibsWithTags: dependsOn('scope:processor', 'scope:shared') },
            { sourceTag: 'scope:config', onlyDependOnLibsWithTags: dependsOn('scope:config', 'scope:shared') },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: dependsOn('scope:shared') },
          ],
        },
      ],
    },
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
