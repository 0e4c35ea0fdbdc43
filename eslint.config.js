// ESLint flat config. Syntax-only (no type-aware rules) so it stays fast; tsc and svelte-check
// do the type checking in `npm run lint`. The folder rules are the runtime boundaries of
// docs/architecture.md: src-shared runs anywhere, src-main is Node + Electron, src-renderer is
// the browser, src-service is a plain Node server.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

/** An import pattern: `regex` is matched against the import specifier as written. */
const forbid = (regex, message) => ({ regex, message });
const ELECTRON = forbid('^electron(/|$)', 'Only src-main/shell and src-preload touch Electron.');
const NODE = forbid(
  `^(node:.*|(${nodeBuiltins.map((name) => name.replace('/', '\\/')).join('|')})(\\/.*)?)$`,
  'Node.js modules are for src-main, src-service, scripts and tests.',
);
const MAIN = forbid(
  '(^|/)src-main(/|$)',
  'The renderer and the service never import main-process code.',
);
const RENDERER = forbid('(^|/)src-renderer(/|$)', 'Only the renderer imports renderer code.');
const SERVICE = forbid(
  '(^|/)src-service(/|$)',
  'The app reaches the service over HTTP, not by import.',
);
const KEYTAR = forbid('^keytar$', 'The keychain is main-process only.');
const SHELL = forbid(
  '(^|/)shell(/|$)',
  'core/ and app/ stay free of Electron: only shell/ wires them to it (shell-deps.ts).',
);
const APP = forbid(
  '(^|/)app(/|$)',
  'core/ is the services; app/ composes them, never the reverse.',
);
const RENDERER_APP = forbid(
  '(^|/)app(/|$)',
  'app/ composes the renderer: features/, ui/, cache/ and map/ never import it.',
);
const FEATURES = forbid(
  '(^|/)features(/|$)',
  'ui/, cache/ and map/ serve every feature: they never import features/.',
);
const PRELOAD = forbid(
  '(^|/)src-preload(/|$)',
  'The preload runs in the page: main never imports it.',
);
const DOM_ONLY = forbid(
  '^(dexie|maplibre-gl|pmtiles|svelte|terra-draw|terra-draw-maplibre-gl-adapter)(/|$)',
  'src-shared runs in every process: no DOM-only modules.',
);

/** Globals neither ES nor TypeScript define: DOM and Node.js ones, refused in src-shared. */
const esGlobals = new Set(Object.keys(globals.builtin));
const hostGlobals = [...new Set([...Object.keys(globals.browser), ...Object.keys(globals.node)])]
  .filter((name) => !esGlobals.has(name))
  .map((name) => ({ name, message: 'src-shared is pure: no DOM or Node.js globals.' }));

const unusedVars = [
  'error',
  {
    argsIgnorePattern: '^_',
    varsIgnorePattern: '^_',
    caughtErrors: 'none',
    ignoreRestSiblings: true,
  },
];

export default defineConfig([
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'bench-results/**',
      'test-results/**',
      'src-renderer/public/**',
      '**/*.tmp.ts',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  svelte.configs.recommended,
  {
    name: 'fieldmap/typescript-in-svelte',
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
    // TypeScript (svelte-check) knows every name, types included; no-undef only misreads types.
    rules: { 'no-undef': 'off' },
  },
  {
    name: 'fieldmap/all',
    rules: {
      '@typescript-eslint/no-unused-vars': unusedVars,
      // `any` needs a comment saying why: an eslint-disable line with a reason.
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      // Misfires on collections built once inside $derived or as locals (new Set(x).size,
      // new Map(pairs)); a Map or Set that is mutated while rendered must be SvelteMap/SvelteSet
      // and review catches that.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    name: 'fieldmap/node-globals',
    files: [
      'src-main/**',
      'src-service/**',
      'scripts/**',
      'test/**',
      '*.config.{js,ts,mjs}',
      '**/*.mjs',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    name: 'fieldmap/browser-globals',
    files: [
      'src-renderer/**',
      'src-preload/**',
      'test/**/*.page.ts',
      'scripts/browser-runner/page-*.ts',
    ],
    languageOptions: { globals: globals.browser },
  },
  {
    name: 'fieldmap/boundary-shared',
    files: ['src-shared/**'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ELECTRON, NODE, KEYTAR, DOM_ONLY, MAIN, RENDERER, SERVICE] },
      ],
      'no-restricted-globals': ['error', ...hostGlobals],
    },
  },
  {
    name: 'fieldmap/boundary-renderer',
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ELECTRON, NODE, KEYTAR, MAIN, SERVICE] }],
    },
  },
  {
    name: 'fieldmap/boundary-renderer-features',
    files: ['src-renderer/src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ELECTRON, NODE, KEYTAR, MAIN, SERVICE, RENDERER_APP] },
      ],
    },
  },
  {
    name: 'fieldmap/boundary-renderer-base',
    files: ['src-renderer/src/{ui,cache,map}/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ELECTRON, NODE, KEYTAR, MAIN, SERVICE, RENDERER_APP, FEATURES] },
      ],
    },
  },
  {
    name: 'fieldmap/boundary-main',
    files: ['src-main/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [RENDERER, PRELOAD] }] },
  },
  {
    name: 'fieldmap/boundary-main-core',
    files: ['src-main/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ELECTRON, SHELL, APP, RENDERER, SERVICE, PRELOAD] },
      ],
    },
  },
  {
    name: 'fieldmap/boundary-main-app',
    files: ['src-main/app/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [ELECTRON, SHELL, RENDERER, PRELOAD] }],
    },
  },
  {
    name: 'fieldmap/boundary-preload',
    files: ['src-preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [NODE, KEYTAR, DOM_ONLY, MAIN, RENDERER, SERVICE] },
      ],
    },
  },
  {
    name: 'fieldmap/boundary-service',
    files: ['src-service/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ELECTRON, KEYTAR, MAIN, RENDERER] }] },
  },
  {
    name: 'fieldmap/tests',
    files: ['test/**', '**/*.test.ts'],
    rules: {
      // Tests assert on shapes they build: non-null assertions after an expect are fine.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // Last: turn off every stylistic rule Prettier owns.
  prettier,
  svelte.configs.prettier,
]);
