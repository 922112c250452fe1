// The part of `loupe index` that reads files and writes the tables (indexBuild.ts plans it). It is
// loaded only when a run has something to read or drop: a run with nothing changed loads none of
// the reading code, the Parquet writer or the threads (indexBuild.ts says why).
import { CALLS_TABLE, fleetCallOf, fleetSessionOf, SESSIONS_TABLE, type FleetCall, type FleetSession } from '../analysis/fleet';
import type { IndexPlan, IndexResult } from './indexBuild';
import { closePlan, readPlannedTrees, treeOfRow, unitKey } from './indexDatabase';
import { writeManifest } from './indexManifest';
import { DEFAULT_ROW_GROUP_ROWS } from './indexOutput';
import { indexFiles } from './indexPool';
import { TableWriter } from './indexStore';

/** Reads what `plan` says is new or changed and writes the tables, keeping what it can of the last run's. */
export async function writeIndex(plan: IndexPlan): Promise<IndexResult> {
  const { options, out, started, manifest, files, stamps, current, reuse, databases, unreadable, subagentsOf, codex, leftOut, unitsBefore } = plan;
  let toRead = plan.toRead;
  const databaseReads = () => databases.reduce((sum, plan) => sum + plan.read.size, 0);
  // Files only added: the tables keep their row groups as they are, and the new files' rows follow.
  // Files changed or gone: the row groups before the first that holds one of them are kept as they
  // are, the kept files' rows after it are written again, and the files read now follow.
  const groupRows = options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
  const appended = toRead.length + databaseReads() > 0 && reuse.size > 0 && reuse.size === unitsBefore ? await appendingWriters(out, reuse.size, groupRows) : null;
  const kept = !appended && reuse.size > 0 ? await keepingWriters(out, reuse, treeOfRow(manifest?.files ?? {}), groupRows) : null;
  const calls = appended?.calls ?? kept?.calls ?? new TableWriter(out, CALLS_TABLE, groupRows);
  const sessions = appended?.sessions ?? kept?.sessions ?? new TableWriter(out, SESSIONS_TABLE, groupRows);
  try {
    if (reuse.size > 0 && !appended && !kept) {
      // The tables are not what the manifest says (removed, written by another version): read everything.
      for (const file of reuse) stamps.delete(file);
      for (const plan of databases) {
        for (const root of Object.keys(plan.stamp.sessions ?? {})) plan.read.add(root);
        plan.reuse = [];
        stamps.set(plan.file, plan.stamp);
      }
      toRead = files.filter((file) => !stamps.has(file));
      reuse.clear();
    }

    let skipped = [...stamps.values()].filter((stamp) => stamp.state === 'not-a-session').length;
    let parsed = 0;
    const read: IndexResult['read'] = [];
    const { threads } = await indexFiles(toRead, {
      jobs: options.jobs,
      ...(plan.early ? { started: plan.early } : {}),
      sizeOf: (file) => current.get(file)?.size,
      onFile: (file, result) => {
        const stamp = current.get(file);
        if (!result.ok) {
          unreadable.push({ file, why: result.error });
          return;
        }
        const rows = result.value;
        // Stamped before it was read: a file written to meanwhile differs next run and is read again.
        if (stamp) stamps.set(file, { ...stamp, state: rows === null ? 'not-a-session' : 'indexed' });
        if (rows === null) {
          skipped++;
          return;
        }
        parsed++;
        read.push({ file });
        sessions.add(rows.session);
        return calls.addBatch(rows.calls);
      },
    }, subagentsOf);
    // Databases last: a session an agent is still writing is most often in one, and rows read last are rewritten first.
    for (const plan of databases) {
      const trees = await readPlannedTrees(plan, (root, rows) => {
        parsed++;
        read.push({ file: plan.file, session: root });
        sessions.add(rows.session);
        for (const call of rows.calls) calls.add(call);
      });
      for (const why of trees.unreadable) unreadable.push({ file: plan.file, why });
      closePlan(plan);
    }
    await calls.finish();
    await sessions.finish();
    unreadable.sort((a, b) => a.file.localeCompare(b.file));
    await writeManifest(out, stamps, unreadable, codex.threads);
    return {
      out,
      sessions: sessions.count,
      calls: calls.count,
      parsed,
      reused: reuse.size,
      read,
      skipped,
      unreadable,
      ms: Math.round(performance.now() - started),
      threads,
      indexed: [...stamps].filter(([, stamp]) => stamp.state === 'indexed').map(([file]) => file),
      leftOut,
    };
  } finally {
    for (const plan of databases) closePlan(plan);
    await Promise.all([calls.abandon(), sessions.abandon()]);
  }
}

/**
 * Writers that start with the rows of the last run's tables for the files in `reuse`, when its
 * sessions table holds every one of them (else the tables are not what the manifest says).
 */
async function keepingWriters(
  out: string,
  reuse: ReadonlySet<string>,
  treeOf: (file: string, session: string | null) => string | undefined | null,
  rowGroupRows: number,
): Promise<{ calls: TableWriter<FleetCall>; sessions: TableWriter<FleetSession> } | null> {
  // A row's unit: its file, or for a database's row the session tree it belongs to.
  const unitOf = (file: string, session: string | null): string | null => {
    const root = treeOf(file, session);
    return root === null ? null : unitKey(file, root);
  };
  const keptIn = (units: ReadonlySet<string>) => (file: string, session: string | null) => {
    const unit = unitOf(file, session);
    return unit !== null && units.has(unit) ? unit : null;
  };
  const sessions = await TableWriter.keeping(out, SESSIONS_TABLE, keptIn(reuse), fleetSessionOf, rowGroupRows);
  const calls = sessions && sessions.kept.size === reuse.size ? await TableWriter.keeping(out, CALLS_TABLE, keptIn(sessions.kept), fleetCallOf, rowGroupRows) : null;
  if (sessions && calls) return { calls: calls.writer, sessions: sessions.writer };
  await Promise.all([sessions?.writer.abandon(), calls?.writer.abandon()]);
  return null;
}

/** Writers that start with the last run's tables, when its sessions table holds exactly the files the manifest says. */
async function appendingWriters(out: string, files: number, rowGroupRows: number): Promise<{ calls: TableWriter<FleetCall>; sessions: TableWriter<FleetSession> } | null> {
  const sessions = await TableWriter.appending(out, SESSIONS_TABLE, rowGroupRows);
  const calls = sessions && sessions.count === files ? await TableWriter.appending(out, CALLS_TABLE, rowGroupRows) : null;
  if (sessions && calls) return { calls, sessions };
  await Promise.all([sessions?.abandon(), calls?.abandon()]);
  return null;
}

