// What both benchmarks share: their flags and the generated input they read.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `--name value` from the command line, or the fallback. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** A generated session of about `mb` MB in .bench/ (made once, by ../shared/tools/gen-session.mjs). */
export function benchInput(format, mb) {
  const dir = join(root, '.bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${format}-${mb}mb.jsonl`);
  if (!existsSync(file)) {
    execFileSync('node', [join(root, '../shared/tools/gen-session.mjs'), '--format', format, '--mb', String(mb), '--seed', '1', '--out', file], { stdio: 'inherit' });
  }
  return file;
}
