// Flat ESLint config. The architectural rules that matter most: src/core never imports vscode nor the
// layers built on it (extension, cli, shared, webview); src/shared and webview stay host-free.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VSCODE_MESSAGE = 'src/core must stay free of vscode: inject what you need through HostContext.';
const CORE_LAYER_MESSAGE = 'src/core imports nothing from src/extension, src/cli, src/shared or webview: those layers depend on the core, never the reverse (ARCHITECTURE.md, "Layers and dependency direction").';
/** A relative specifier leaving src/core for another layer ("../../extension/x", "../shared/y"); src/core has no folders of these names. */
const OUTER_LAYER = '^(\\.\\./)+(src/)?(extension|cli|shared|webview)(/|$)';
/** The same for selectors: an esquery regex ends at the first "/", so slashes are written \x2F. */
const OUTER_LAYER_SELECTOR = OUTER_LAYER.replaceAll('/', '\\x2F');

/** Rules shared by the core and by the lint fixtures that prove they fire. */
export const noVscodeInCore = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: VSCODE_MESSAGE }],
    patterns: [{ regex: OUTER_LAYER, message: CORE_LAYER_MESSAGE }],
  }],
  'no-restricted-syntax': ['error',
    { selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']", message: VSCODE_MESSAGE },
    { selector: `CallExpression[callee.name='require'][arguments.0.value=/${OUTER_LAYER_SELECTOR}/]`, message: CORE_LAYER_MESSAGE },
    { selector: `ImportExpression[source.value=/${OUTER_LAYER_SELECTOR}/]`, message: CORE_LAYER_MESSAGE },
  ],
};

const SHARED_MESSAGE = 'src/shared is imported by the extension host and the browser webview alike: it imports only from src/shared.';
/** src/shared (the Knowledge panel protocol) stands alone: no vscode, nothing outside its folder. */
export const sharedStandsAlone = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: SHARED_MESSAGE }],
    patterns: [{ regex: '^\\.\\./', message: SHARED_MESSAGE }],
  }],
};

const WEBVIEW_MESSAGE = 'webview is browser code: it imports only its own modules and the protocol in src/shared.';
/** The webview bundle runs in the browser: its own files and src/shared only. */
export const webviewImportsShared = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: WEBVIEW_MESSAGE }],
    patterns: [{ regex: '^\\.\\./(?!src/shared/)', message: WEBVIEW_MESSAGE }],
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
  { files: ['src/shared/**/*.ts'], rules: sharedStandsAlone },
  { files: ['webview/**/*.ts'], rules: webviewImportsShared },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  { files: ['**/*.mjs', '**/*.cjs', 'scripts/**/*.js'], rules: { 'no-restricted-exports': 'off', '@typescript-eslint/no-require-imports': 'off' } },
);
