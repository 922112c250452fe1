// Builds entries of src/ for Node with the CLI's own build settings (vite.cli.config.ts) into a
// folder of plain ES modules, `OUT_DIR/<name>.js` each: the same code the CLI runs, for benchmarks
// (bench:tee, bench:fold) and tests that run it as a child process.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `inputs`: entry name → path from the repository root. Resolves to each entry's built file, by name. */
export async function buildForNode(inputs, outDir, logLevel = 'warn') {
  const input = Object.fromEntries(Object.entries(inputs).map(([name, path]) => [name, join(root, path)]));
  await build({
    root,
    configFile: false,
    logLevel,
    publicDir: false,
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      rollupOptions: { input, output: { format: 'es', entryFileNames: '[name].js' } },
    },
    ssr: { noExternal: true },
  });
  return Object.fromEntries(Object.keys(inputs).map((name) => [name, join(outDir, `${name}.js`)]));
}
