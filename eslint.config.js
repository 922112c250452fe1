// @ts-check
// Flat ESLint config for Loupe.
//
// - TypeScript files are linted with type information (projectService).
// - .tsx files also get the react-hooks recommended rules.
// - Plain .js/.mjs files (this file, scripts/*.mjs, bin/) are linted without types.
// - A layering rule keeps imports flowing one way through src/ (see src/README.md):
//     ingest -> model -> analysis -> share -> worker -> store -> ui -> embed -> app, library (ui) -> app,
//     and cli (ingest, model, analysis, share); routes (analysis) -> library, app, cli.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Globals for Node scripts (the `globals` package is not a dependency). */
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'queueMicrotask',
    'performance',
    'fetch',
    'structuredClone',
    'TextEncoder',
    'TextDecoder',
    'AbortController',
    'globalThis',
  ].map((name) => [name, /** @type {const} */ ('readonly')]),
);

// ---------------------------------------------------------------------------
// Layering
// ---------------------------------------------------------------------------

/** Every layer folder under src/. */
const LAYERS = ['ingest', 'model', 'analysis', 'share', 'worker', 'store', 'ui', 'embed', 'library', 'app', 'cli', 'routes'];

/**
 * Regex matching an import specifier that reaches into one of `layers`, e.g.
 * `../ui/x`, `../../store`, `src/app/main` — a path segment equal to the layer name.
 * @param {string[]} layers
 */
const layerRegex = (layers) => `(^|/)(${layers.join('|')})(/|$)`;

/** Specifiers for React itself (react, react-dom, react/jsx-runtime, react-dom/client ...). */
const REACT_REGEX = '^react(-dom)?(/|$)';

/**
 * Allowed imports per layer (besides its own folder). Everything else in LAYERS is forbidden.
 * `typeOnly` layers may be imported with `import type` only.
 * @type {Record<string, { allow: string[], typeOnly?: string[], react: boolean, why: string }>}
 */
const RULES = {
  ingest: { allow: [], react: false, why: 'src/ingest is the bottom layer: it imports no other layer.' },
  model: { allow: ['ingest'], react: false, why: 'src/model may import only src/ingest.' },
  analysis: { allow: ['ingest', 'model'], react: false, why: 'src/analysis may import only src/ingest and src/model.' },
  share: { allow: ['ingest', 'model', 'analysis'], react: false, why: 'src/share may import only src/ingest, src/model and src/analysis.' },
  worker: {
    allow: ['ingest', 'model', 'analysis', 'share'],
    react: false,
    why: 'src/worker may import only src/ingest, src/model, src/analysis and src/share.',
  },
  store: {
    allow: ['ingest', 'model', 'analysis', 'share', 'worker'],
    react: true,
    why: 'src/store may import only src/ingest, src/model, src/analysis, src/share and src/worker.',
  },
  ui: {
    allow: ['model', 'analysis', 'share', 'store'],
    typeOnly: ['ingest'],
    react: true,
    why: 'src/ui may import src/model, src/analysis, src/share, src/store, and types (import type) from src/ingest.',
  },
  embed: {
    allow: ['ingest', 'model', 'analysis', 'share', 'worker', 'store', 'ui'],
    react: true,
    why: 'src/embed may import any layer except src/app (and src/cli).',
  },
  library: {
    allow: ['model', 'analysis', 'ui', 'routes'],
    typeOnly: ['ingest'],
    react: true,
    why: 'src/library may import src/model, src/analysis, src/ui, src/routes, and types (import type) from src/ingest.',
  },
  app: {
    allow: ['embed', 'library', 'routes'],
    react: true,
    why: 'src/app may import only src/embed (the public component, as a consumer would), src/library (the page of `loupe open DIR`) and src/routes (the addresses it shares with the server).',
  },
  cli: {
    allow: ['ingest', 'model', 'analysis', 'share', 'routes'],
    react: false,
    why: 'src/cli may import only src/ingest, src/model, src/analysis, src/share and src/routes.',
  },
  routes: {
    allow: ['analysis'],
    react: false,
    why: 'src/routes (the addresses and listings between `loupe open` and its page) may import only src/analysis.',
  },
};

const LAYER_MESSAGE =
  'Layering: imports flow ingest -> model -> analysis -> share -> worker -> store -> ui -> embed -> app, ui -> library -> app (cli: ingest, model, analysis, share; routes: analysis, imported by library, app and cli). See src/README.md.';

/** @param {string} layer */
function layeringRule(layer) {
  const spec = RULES[layer];
  if (!spec) throw new Error(`unknown layer ${layer}`);
  const typeOnly = spec.typeOnly ?? [];
  const forbidden = LAYERS.filter((l) => l !== layer && !spec.allow.includes(l) && !typeOnly.includes(l));
  /** @type {Array<{ regex: string, message: string, allowTypeImports?: boolean }>} */
  const patterns = [];
  if (forbidden.length > 0) {
    patterns.push({
      regex: layerRegex(forbidden),
      message: `${spec.why} ${LAYER_MESSAGE}`,
    });
  }
  if (typeOnly.length > 0) {
    patterns.push({
      regex: layerRegex(typeOnly),
      allowTypeImports: true,
      message: `${spec.why} Use \`import type\`. ${LAYER_MESSAGE}`,
    });
  }
  if (!spec.react) {
    patterns.push({
      regex: REACT_REGEX,
      message: `src/${layer} must not depend on React (only store, ui, embed, library and app may). ${LAYER_MESSAGE}`,
    });
  }
  return {
    name: `loupe/layering/${layer}`,
    files: [`src/${layer}/**/*.{ts,tsx,js,mjs}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
    },
  };
}

export const layering = LAYERS.map(layeringRule);

// ---------------------------------------------------------------------------

export default defineConfig(
  {
    name: 'loupe/ignores',
    ignores: [
      'dist/**',
      'dist-*/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.bench/**',
      'coverage/**',
      'public/**',
      // AssemblyScript, not TypeScript: its `v128` and `@inline` are not TypeScript's (scripts/build-wasm.mjs compiles it).
      'src/ingest/wasm/assembly/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    name: 'loupe/typed',
    languageOptions: {
      parserOptions: {
        projectService: {
          // scripts/*.ts (e.g. layering.test.ts) are not in tsconfig.json's include;
          // lint them against tsconfig.json's options as "default project" files.
          allowDefaultProject: ['scripts/*.ts'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Issue 32's bar: a function that long mixes concerns; split it by what each part is for.
    name: 'loupe/function-length',
    rules: { 'max-lines-per-function': ['error', { max: 200 }] },
  },
  {
    name: 'loupe/react-hooks',
    files: ['**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    name: 'loupe/untyped-js',
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'module',
      globals: nodeGlobals,
    },
  },
  ...layering,
);
