// The house style, in one place. `npm test` runs `npm run lint` (eslint over the whole repo)
// before the tests. Formatting is prettier's (.prettierrc.json, `npm run format`), not this file's.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist-server/', 'coverage/', 'test-output/', '.pacto/', 'node_modules/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Unused names are mistakes; a leading underscore says "unused on purpose".
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Types only where they are types: `import type` keeps src/rules and src/protocol free of
      // runtime imports they do not use.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports', disallowTypeAnnotations: false }],
      // `x!` is how the code says "the index is in range" under noUncheckedIndexedAccess.
      '@typescript-eslint/no-non-null-assertion': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    // Tests forge payloads a cheater would send: free-form JSON there is `any` on purpose.
    files: ['tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The two rules of hooks. The plugin's React Compiler rules (set-state-in-effect, refs, ...)
    // are left off: the app is not compiled by the React Compiler.
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The layers that must stay pure: no clock, no randomness, no console (the brief's rule).
    files: ['src/rules/**/*.ts', 'src/protocol/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'src/rules and src/protocol are pure: randomness comes in from the caller.' },
        { object: 'Date', property: 'now', message: 'src/rules and src/protocol are pure: time comes in from the caller.' },
      ],
      'no-console': 'error',
    },
  },
);
