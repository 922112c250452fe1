// Builds `loupe tee`, `loupe open` and the scripted test agent into a folder of plain Node modules, with the
// CLI's own build settings (vite.cli.config.ts), so tests run tee as the real child process it is.
import { join } from 'node:path';
import { build } from 'vite';

const ROOT = join(import.meta.dirname, '../../..');

export interface BuiltTee {
  tee: string;
  agent: string;
  /** `loupe open` (testing/openMain.ts). */
  open: string;
}

export async function buildTee(outDir: string): Promise<BuiltTee> {
  await build({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      rollupOptions: {
        input: {
          tee: join(ROOT, 'src/cli/testing/teeMain.ts'),
          agent: join(ROOT, 'src/cli/testing/scriptedAgent.ts'),
          open: join(ROOT, 'src/cli/testing/openMain.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
    ssr: { noExternal: true },
  });
  return { tee: join(outDir, 'tee.js'), agent: join(outDir, 'agent.js'), open: join(outDir, 'open.js') };
}
