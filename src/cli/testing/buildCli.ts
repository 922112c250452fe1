// Builds the `loupe` CLI as it ships (vite.cli.config.ts) into a folder, for tests that run it as a
// child process (as another user, or with its worker threads).
import { join } from 'node:path';
import { build } from 'vite';

const ROOT = join(import.meta.dirname, '../../..');

/** The built CLI's entry (`OUT_DIR/loupe.js`). */
export async function buildCli(outDir: string): Promise<string> {
  await build({ root: ROOT, configFile: join(ROOT, 'vite.cli.config.ts'), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  return join(outDir, 'loupe.js');
}
