// Whether a folder is a team's shared index, and where a machine's partition of it is: what every
// run of `loupe index` asks, apart from teamIndex.ts (which reads the partitions' tables), so that a
// run with nothing changed loads no Parquet reader for it.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LISTING_FILE, machineOfDir, PARTITION_PREFIX } from '../analysis/teamIndex';

export const partitionDir = (base: string, machine: string): string => join(base, `${PARTITION_PREFIX}${machine}`);

/** Whether `base` is already a team's folder: it holds `index.json` or a `machine=NAME/` folder. */
export async function looksLikeTeamBase(base: string): Promise<boolean> {
  if ((await lstat(join(base, LISTING_FILE)).catch(() => null))?.isFile()) return true;
  const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
  return entries.some((entry) => entry.isDirectory() && machineOfDir(entry.name) !== null);
}
