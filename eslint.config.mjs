// Flat ESLint config. The one architectural rule that matters most: src/core never imports vscode.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Rule shared by the core and by the lint fixture that proves it fires. */
export const noVscodeInCore = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'src/core must stay free of vscode: inject what you need through HostContext.' }],
  }],
  'no-restricted-syntax': ['error', {
    selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
    message: 'src/core must stay free of vscode: inject what you need through HostContext.',
  }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', 'models/**', 'test-results/**', 'bench/results/**', 'test/fixtures/lint/**', 'test/fixtures/**/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable', performance: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', fetch: 'readonly', structuredClone: 'readonly', queueMicrotask: 'readonly', setImmediate: 'readonly' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true, named: true, defaultFrom: true, namedFrom: true, namespaceFrom: true } }],
    },
  },
  { files: ['src/core/**/*.ts'], rules: noVscodeInCore },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['**/*.mjs', '**/*.cjs', 'scripts/**/*.js'], rules: { 'no-restricted-exports': 'off', '@typescript-eslint/no-require-imports': 'off' } },
);
