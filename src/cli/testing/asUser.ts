// Tests that need a file its user cannot read (mode 000) run the CLI as another user under root:
// root reads a file of any mode. As root the child runs as `nobody` (uid/gid 65534).
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';

export const asRoot = process.getuid?.() === 0;

/** spawn options that run the child as `nobody` under root, as the current user otherwise. */
export const childUser: { uid?: number; gid?: number } = asRoot ? { uid: 65534, gid: 65534 } : {};

/** A folder for the test that the child's user can reach: $TMPDIR may be private to root (mktemp -d is 0700). */
export function reachableTemp(): string {
  if (!asRoot) return tmpdir();
  const reachable = (dir: string) => spawnSync(process.execPath, ['-e', 'require("fs").accessSync(process.argv[1], require("fs").constants.X_OK)', dir], childUser).status === 0;
  const found = [tmpdir(), '/tmp'].find(reachable);
  if (!found) throw new Error(`neither ${tmpdir()} nor /tmp can be entered by uid 65534, which these tests run the CLI as under root`);
  return found;
}
