#!/usr/bin/env node
// The `loupe` command. Runs the built CLI (npm run build, or npm run build:cli).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli/loupe.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('loupe: the CLI is not built yet; run `npm run build` (or `npm run build:cli`) first\n');
  process.exit(1);
}
await import(built);
