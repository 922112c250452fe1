// Builds `loupe tee`, `loupe open` and the scripted test agent into a folder of plain Node modules, with the
// CLI's own build settings (vite.cli.config.ts), so tests run tee as the real child process it is.
import { buildForNode } from '../../../scripts/build-node.mjs';

export interface BuiltTee {
  tee: string;
  agent: string;
  /** `loupe open` (testing/openMain.ts). */
  open: string;
}

export async function buildTee(outDir: string): Promise<BuiltTee> {
  return buildForNode({ tee: 'src/cli/testing/teeMain.ts', agent: 'src/cli/testing/scriptedAgent.ts', open: 'src/cli/testing/openMain.ts' }, outDir, 'silent');
}
