// "Open folder…" read on the page (no Worker in Node: the path a browser without one takes): the
// picked files that are sessions become the rows `loupe index` makes of them, progress after each.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { fleetRows } from '../analysis/fleet';
import { headOfBlob } from '../analysis/fileRows';
import { ingest, summarize } from '../model';
import { fileIdsOf } from './fleetData';
import { indexFolder, pickedFiles, type FolderProgress } from './folderIndex';
import { bothRecordings, deleteSession, HELDOUT, TIDY, walModeFile, walOf } from '../analysis/testing/openCodeDatabases';

const ROOT = new URL('../../', import.meta.url);

/** A File as a folder picker gives it: named by its path from the picked folder. */
function picked(path: string, bytes: Uint8Array<ArrayBuffer> | string, FileKind: typeof File = File): File {
  const file = new FileKind([bytes], path.split('/').pop() ?? path, { lastModified: 1_700_000_000_000 });
  Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

/** A file that went away between the pick and the read. */
class VanishedFile extends File {
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    throw new Error('NotFoundError: the file is no longer there');
  }
}

const CLAUDE = 'native/claude-code-2.1.83_via-claude-agent-acp.jsonl';
const GROK = 'grok/esc-interrupt.updates.jsonl';
const fixtureBytes = (file: string) => new Uint8Array(readFileSync(new URL(`fixtures/${file}`, ROOT)));

describe('Open folder…', () => {
  test('keeps the files a session may be in, named inside the folder, in order', () => {
    const { folder, files } = pickedFiles([picked('runs/b/x.jsonl', ''), picked('runs/a.json', ''), picked('runs/logo.png', ''), picked('runs/notes.md', '')]);
    expect(folder).toBe('runs');
    expect(files.map((f) => f.path)).toEqual(['a.json', 'b/x.jsonl']);
  });

  test('a Claude Code session\'s sub-agents\' files are read with it: one session, each sub-agent call with its Task call as parent', async () => {
    const run = '869c696e-f778-4f73-81d7-92fbc13f60b4';
    const recorded = `subagent/claude-code-2.1.83_three-subagents/${run}`;
    const agents = ['aab1cfe8219976e47', 'abfb5d1c99197dbd5', 'ae39ff0bfb83acdd9'];
    const chosen = pickedFiles([
      picked(`p/${run}.jsonl`, fixtureBytes(`${recorded}.jsonl`)),
      ...agents.flatMap((agent) => [
        picked(`p/${run}/subagents/agent-${agent}.jsonl`, fixtureBytes(`${recorded}/subagents/agent-${agent}.jsonl`)),
        picked(`p/${run}/subagents/agent-${agent}.meta.json`, fixtureBytes(`${recorded}/subagents/agent-${agent}.meta.json`)),
      ]),
    ]);
    expect(chosen.files.map((f) => f.path)).toEqual([`${run}.jsonl`]);
    const index = await indexFolder(chosen, () => undefined);
    expect(index.sessions).toHaveLength(1);
    expect(index.sessions[0]).toMatchObject({ calls: 19 });
    expect(index.calls.length).toBe(19);
    // The row opens the joined file: the sub-agents' calls under their Agent calls.
    const opened = await ingest(new Uint8Array(await chosen.files[0]!.file.arrayBuffer()), { detail: 'light' });
    const parents = summarize(opened).calls.filter((call) => call.parent !== null).map((call) => [call.id.slice(0, 'toolu_subA'.length), call.parent]);
    expect(parents.sort()).toEqual([
      ...Array.from({ length: 3 }, () => ['toolu_subA', 'toolu_main1_1_1']),
      ...Array.from({ length: 3 }, () => ['toolu_subB', 'toolu_main1_1_2']),
      ...Array.from({ length: 3 }, () => ['toolu_subC', 'toolu_main2_1_1']),
    ]);
  });

  test('makes the rows loupe index makes, reports each file, lists the unreadable and leaves out what is no session', async () => {
    const claude = fixtureBytes(CLAUDE);
    const grok = fixtureBytes(GROK);
    const files = [
      picked(`runs/${CLAUDE}`, claude),
      picked(`runs/${GROK}`, grok),
      picked('runs/settings.json', '{"theme": "dark"}\n'),
      picked('runs/gone.jsonl', 'x', VanishedFile),
    ];
    const progress: FolderProgress[] = [];
    const index = await indexFolder(pickedFiles(files), (p) => progress.push(p));

    expect(progress).toEqual([0, 1, 2, 3, 4].map((done) => ({ done, total: 4 })));
    expect(index.folder).toBe('runs');
    expect(index.sessions.map((s) => s.file).sort()).toEqual([CLAUDE, GROK].sort());
    expect(index.unreadable.map((u) => u.file)).toEqual(['gone.jsonl']);
    expect(index.unreadable[0]?.why).toContain('no longer there');

    // Project, start and session id from the file's first lines, as `loupe index` reads them (cli/sessions.ts).
    const head = await headOfBlob(new Blob([claude]));
    expect(head.cwd).toBe('/home/dev/run1/work/claude-agent-acp-capture');
    const expected = fleetRows(await ingest(claude, { detail: 'light' }), {
      file: CLAUDE, bytes: claude.length, modifiedMs: 1_700_000_000_000, headFormat: 'claude-code', project: head.cwd, startedMs: head.startMs ?? null, sessionId: head.sessionId, title: head.title,
    });
    const row = index.sessions.find((s) => s.file === CLAUDE);
    expect(row).toEqual(expected.session);
    expect(row?.project).toBe('/home/dev/run1/work/claude-agent-acp-capture');
    expect(expected.calls.length).toBeGreaterThan(0);
    const claudeId = fileIdsOf(index.calls).get(CLAUDE);
    expect([...index.calls.file].filter((id) => id === claudeId)).toHaveLength(expected.calls.length);
    expect(index.files.get(GROK)?.size).toBe(grok.length);
  });

  test('a Claude Code log whose lines name no directory takes its project folder\'s name, as loupe ls shows it', async () => {
    const lines = new TextDecoder().decode(fixtureBytes(CLAUDE)).replaceAll('"cwd":"/home/dev/run1/work/claude-agent-acp-capture",', '');
    const index = await indexFolder(pickedFiles([picked('projects/-home-dev-shop/4b56d36c.jsonl', lines)]), () => undefined);
    expect(index.sessions.map((s) => s.project)).toEqual(['-home-dev-shop']);
  });

  test("an OpenCode database: a row per session a person started, as loupe index writes them, its -wal picked with it read too", async () => {
    const db = await bothRecordings();
    const full = db.export();
    // The sub-agent's session is only in the log: OpenCode had not checkpointed it yet.
    deleteSession(db, TIDY.child);
    const main = walModeFile(db);
    db.close();
    const files = [picked('data/opencode/opencode.db', main), picked('data/opencode/opencode.db-wal', walOf(full))];
    const rowsOf = async (picks: File[]) => (await indexFolder(pickedFiles(picks), () => undefined)).sessions.map((s) => [s.file, s.session, s.calls, s.project]);
    const tidy = ['opencode/opencode.db', TIDY.root, 9, TIDY.project];
    const held = ['opencode/opencode.db', HELDOUT.root, 6, HELDOUT.project];
    expect(await rowsOf(files)).toEqual([tidy, held]);
    // Without its log the sub-agent's call is not there.
    expect(await rowsOf(files.slice(0, 1))).toEqual([[...tidy.slice(0, 2), 8, tidy[3]], held]);
  });

  test("a Cline session's project from the <id>.json picked beside it, as loupe ls and loupe index read it; that file is no session", async () => {
    const folder = 'sessions/1796192429067_g2n1j';
    const messages = picked(`${folder}/1796192429067_g2n1j.messages.json`, fixtureBytes('native/cline-3.0.65_tidy-notes.messages.json'));
    const manifest = picked(`${folder}/1796192429067_g2n1j.json`, fixtureBytes('cline/1796192429067_g2n1j.json'));
    const rowsOf = async (files: File[]) => (await indexFolder(pickedFiles(files), () => undefined)).sessions.map((s) => [s.file, s.format, s.project]);
    expect(await rowsOf([messages, manifest])).toEqual([['1796192429067_g2n1j/1796192429067_g2n1j.messages.json', 'cline', '/tmp/cline-rec/out/main/ws']]);
    // Without it the messages do not say where Cline ran.
    expect(await rowsOf([messages])).toEqual([['1796192429067_g2n1j/1796192429067_g2n1j.messages.json', 'cline', null]]);
  });
});
