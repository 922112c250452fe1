// Guards the layering rule in eslint.config.js so it cannot silently rot:
// lints in-memory snippets placed (virtually) inside each src/ layer and checks
// which imports are reported.
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RULE = '@typescript-eslint/no-restricted-imports';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    // The probe files do not exist on disk, so the TypeScript project service cannot
    // type them: lint them untyped. The layering rule needs no type information.
    overrideConfig: [{ files: ['src/**'], ...tseslint.configs.disableTypeChecked }],
  });
});

/** Lint `code` as if it lived at `file` (relative to the repo root); return layering messages. */
async function layeringErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  if (!result) throw new Error('no lint result');
  const fatal = result.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(fatal.map((m) => m.message).join('\n'));
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

const probe = (layer: string, name = '__layering_probe__.ts') => `src/${layer}/${name}`;

describe('layering rule (eslint.config.js)', () => {
  it.each([
    ['ingest', "import { x } from '../ui/x';"],
    ['ingest', "import { x } from '../model/types';"],
    ['ingest', "import { x } from '../../src/store';"],
    ['model', "import { x } from '../worker/pool';"],
    ['worker', "import { x } from '../store/db';"],
    ['store', "import { x } from '../ui/Row';"],
    ['ui', "import { x } from '../worker/pool';"],
    ['ui', "import { x } from '../embed';"],
    ['ui', "import { x } from '../ingest/parse';"],
    ['embed', "import { x } from '../app/main';"],
    ['app', "import { x } from '../ui/Transcript';"],
    ['app', "import { x } from '../model/types';"],
    ['app', "import { x } from '../ingest';"],
    ['cli', "import { x } from '../worker/pool';"],
    ['cli', "import { x } from '../ui/x';"],
    ['ingest', "import { useState } from 'react';"],
    ['model', "import { createRoot } from 'react-dom/client';"],
    ['worker', "import { jsx } from 'react/jsx-runtime';"],
    ['cli', "import * as React from 'react';"],
    ['model', "export { x } from '../store/x';"],
    ['model', "import { x } from '../analysis/insights';"],
    ['model', "import { x } from '../share/redact/detect';"],
    ['analysis', "import { x } from '../share/exportMarkdown';"],
    ['analysis', "import { x } from '../worker/pool';"],
    ['share', "import { x } from '../store/notes';"],
    ['share', "import { x } from '../ui/x';"],
    ['share', "import * as React from 'react';"],
    ['ingest', "import { x } from '../share/redact/detect';"],
    ['library', "import { x } from '../store/db';"],
    ['library', "import { x } from '../embed';"],
    ['library', "import { x } from '../ingest/parse';"],
    ['ui', "import { x } from '../library/Library';"],
    ['app', "import { x } from '../analysis/fleet';"],
    ['routes', "import { x } from '../ui/x';"],
    ['routes', "import { x } from '../library/fleetData';"],
    ['routes', "import * as React from 'react';"],
    ['ui', "import { x } from '../routes/page';"],
    ['embed', "import { x } from '../routes/page';"],
  ])('reports src/%s: %s', async (layer, code) => {
    const errors = await layeringErrors(probe(layer), `${code}\nexport const y = 1;\n`);
    expect(errors.length, errors.join('\n')).toBeGreaterThan(0);
    expect(errors[0]).toMatch(/Layering/);
  });

  it.each([
    ['ingest', "import { x } from './schema';"],
    ['model', "import { x } from '../ingest/parse';"],
    ['model', "import { x } from './types';"],
    ['worker', "import { x } from '../model/types';"],
    ['worker', "import { x } from '../ingest/parse';"],
    ['store', "import { x } from '../worker/pool';"],
    ['store', "import { useSyncExternalStore } from 'react';"],
    ['ui', "import { x } from '../store/db';"],
    ['ui', "import { x } from '../model/types';"],
    ['ui', "import type { X } from '../ingest/types';"],
    ['ui', "import { type X } from '../ingest/types';"],
    ['ui', "import { useState } from 'react';"],
    ['ui', "import { x } from './store-helpers';"],
    ['embed', "import { x } from '../ui/Transcript';"],
    ['embed', "import { x } from '../worker/pool';"],
    ['app', "import { Loupe } from '../embed';"],
    ['app', "import { createRoot } from 'react-dom/client';"],
    ['cli', "import { x } from '../ingest/parse';"],
    ['cli', "import { x } from '../model/summary';"],
    ['cli', "import { readFile } from 'node:fs/promises';"],
    ['analysis', "import { x } from '../model/types';"],
    ['share', "import { x } from '../analysis/insights';"],
    ['share', "import { x } from '../model/summary';"],
    ['worker', "import { x } from '../share/redact/redactLine';"],
    ['ui', "import { x } from '../analysis/timeline';"],
    ['cli', "import { x } from '../share/exportJsonl';"],
    ['library', "import { x } from '../ui/virtual/VirtualList';"],
    ['library', "import { x } from '../analysis/fleet';"],
    ['library', "import type { X } from '../ingest/types';"],
    ['app', "import { Library } from '../library/Library';"],
    ['app', "import { readPageRoute } from '../routes/page';"],
    ['cli', "import { serverRouteOf } from '../routes/server';"],
    ['library', "import { libraryListingSchema } from '../routes/listings';"],
    ['routes', "import { machineOfDir } from '../analysis/teamIndex';"],
    ['routes', "import { z } from 'zod';"],
  ])('allows src/%s: %s', async (layer, code) => {
    const errors = await layeringErrors(probe(layer), `${code}\nexport const y = 1;\n`);
    expect(errors).toEqual([]);
  });

  it('applies to .tsx files too', async () => {
    const errors = await layeringErrors(
      probe('ui', '__layering_probe__.tsx'),
      "import { x } from '../app/main';\nexport const C = () => <div>{String(x)}</div>;\n",
    );
    expect(errors.length).toBeGreaterThan(0);
  });
});
