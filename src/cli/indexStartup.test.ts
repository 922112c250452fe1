// A run of `loupe index` with nothing changed loads only the walk, the harnesses' path rules and the
// manifest (indexBuild.ts): loading zod, the model, the Parquet writer and the reader threads' code
// was a third of that run (0.32 → 0.25 s on 1,000 logs). What `loupe index` imports before it knows
// whether anything changed is followed here through the sources' static imports (`import type`
// and `import()` left out, as the build leaves them out of the first modules it loads), and none
// of those may be among them.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const root = resolve(__dirname, '../..');

/** What only a run that reads or writes needs (packages by the name imported: the whole of each). */
const HEAVY = ['zod', 'hyparquet', 'hyparquet-writer', 'src/model/index.ts', 'src/ingest/schemas.ts', 'src/cli/indexPool.ts', 'src/cli/indexWrite.ts', 'src/cli/indexStore.ts', 'src/cli/files.ts', 'src/cli/sessions.ts', 'src/cli/subagentFiles.ts', 'src/cli/indexDatabase.ts', 'src/cli/teamIndex.ts'];

/** Static imports and re-exports of values, not of types alone. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(STATIC_IMPORT)].map((match) => match[1]!);
}

function resolveSource(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // the next form
    }
  }
  throw new Error(`${relative(root, from)} imports ${specifier}, which is no source file`);
}

/** Every module and package `entry` loads before its first `import()`. */
function loadedBy(entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string): void => {
    const name = relative(root, file);
    if (loaded.has(name)) return;
    loaded.add(name);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('node:') || specifier.endsWith('.json')) continue;
      const source = resolveSource(file, specifier);
      // A package by the name it is imported by: `hyparquet` is the whole reader, `hyparquet/src/metadata.js` its footer's part.
      if (source === null) loaded.add(specifier);
      else visit(source);
    }
  };
  visit(join(root, entry));
  return loaded;
}

test('loupe index loads no reading, writing or validating code before it knows a file changed', () => {
  const loaded = loadedBy('src/cli/indexCommand.ts');
  // The walk and the manifest are there: the test follows what it should.
  expect(loaded).toContain('src/cli/sessionWalk.ts');
  expect(loaded).toContain('src/cli/indexManifest.ts');
  expect(loaded).toContain('src/ingest/harnesses/index.ts');
  expect(HEAVY.filter((module) => loaded.has(module))).toEqual([]);
});

test('the check follows re-exports and leaves type imports out', () => {
  expect(staticImports(join(root, 'src/cli/sessions.ts'))).toContain('./sessionWalk');
  const loaded = loadedBy('src/cli/sessions.ts');
  expect(loaded).toContain('src/cli/sessionWalk.ts');
  expect(loaded).toContain('zod');
});
