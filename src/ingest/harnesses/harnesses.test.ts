// The registry's answers, as the lister, the index and the pages ask them.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { compareVersions, defaultSessionFolders, formatName, headFileOf, isSessionFile, parentSessionFileOf, subagentLayoutOf, untestedRelease } from './index';
import { noteHeadFile } from './head';
import { headOfText } from '../testing/headOfText';
import { loadSqlJs } from '../sqlite/sqljs';
import { headOfOpenCodeDatabase } from './opencode';
import { promptTitle } from './title';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url), 'utf8');

describe('where sessions live', () => {
  test('each harness in its folder, moved by the variables it honours', () => {
    expect(defaultSessionFolders({ home: '/home/ana', vars: {} })).toEqual([
      '/home/ana/.local/state/loupe/captures', '/home/ana/.claude/projects', '/home/ana/.codex/sessions', '/home/ana/.codex/archived_sessions',
      '/home/ana/.gemini/tmp', '/home/ana/.qwen/projects', '/home/ana/.pi/agent/sessions', '/home/ana/.local/share/opencode',
      '/home/ana/.cline/data/sessions',
    ]);
    const moved = defaultSessionFolders({ home: '/home/ana', vars: { CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: 'relative/ignored', XDG_STATE_HOME: '/state' } });
    expect(moved).toContain('/cfg/claude/projects');
    expect(moved).toContain('/home/ana/.codex/sessions');
    expect(moved).toContain('/state/loupe/captures');
    expect(defaultSessionFolders({ home: '/h', vars: { QWEN_HOME: '/q' } })).toContain('/q/projects');
    expect(defaultSessionFolders({ home: '/h', vars: { QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '/run/q' } })).toContain('/run/q/projects');
    const data = defaultSessionFolders({ home: '/home/ana', vars: { XDG_DATA_HOME: '/data', OPENCODE_DB: '/dbs/oc.db' } });
    expect(data).toContain('/data/opencode');
    expect(data).toContain('/dbs/oc.db');
    // Cline: CLINE_SESSION_DATA_DIR names the sessions folder, else CLINE_DATA_DIR the data folder, else CLINE_DIR ~/.cline.
    expect(defaultSessionFolders({ home: '/h', vars: { CLINE_DIR: '/c' } })).toContain('/c/data/sessions');
    expect(defaultSessionFolders({ home: '/h', vars: { CLINE_DIR: '/c', CLINE_DATA_DIR: '/d' } })).toContain('/d/sessions');
    expect(defaultSessionFolders({ home: '/h', vars: { CLINE_DATA_DIR: '/d', CLINE_SESSION_DATA_DIR: '/s' } })).toContain('/s');
  });

  test("inside a harness's folder only its session files; elsewhere any file of a format Loupe reads", () => {
    expect(isSessionFile('/h/.claude/projects/-p/s.jsonl')).toBe(true);
    expect(isSessionFile('/h/.claude/settings.json')).toBe(false);
    expect(isSessionFile('/h/.claude/projects/-p/s/subagents/agent-a.meta.json')).toBe(false);
    expect(isSessionFile('/h/.codex/history.jsonl')).toBe(false);
    expect(isSessionFile('/h/.codex/sessions/2026/12/01/rollout-1.jsonl')).toBe(true);
    expect(isSessionFile('/h/.gemini/tmp/app/chats/session-2026-12-01T14-23-4b56d36c.jsonl')).toBe(true);
    expect(isSessionFile('/h/.gemini/tmp/app/chats/session-2026-12-01T14-23-4b56d36c.json')).toBe(true);
    expect(isSessionFile('/h/.gemini/tmp/app/logs.json')).toBe(false);
    expect(isSessionFile('/h/.gemini/settings.json')).toBe(false);
    expect(isSessionFile('/h/.qwen/projects/-w/chats/2258bfa4-6581-425d-931a-ea0485616774.jsonl')).toBe(true);
    expect(isSessionFile('/h/.qwen/projects/-w/subagents/2258bfa4/agent-general-purpose-call_1.jsonl')).toBe(true);
    expect(isSessionFile('/h/.qwen/projects/-w/subagents/2258bfa4/agent-general-purpose-call_1.meta.json')).toBe(false);
    expect(isSessionFile('/h/.qwen/usage_record.jsonl')).toBe(false);
    expect(isSessionFile('/h/.qwen/settings.json')).toBe(false);
    expect(isSessionFile('/h/repo/.qwen/settings.json')).toBe(false);
    expect(isSessionFile('/h/.pi/agent/sessions/--home-ana-app--/2026-12-02T03-50-32-576Z_01a234e0.jsonl')).toBe(true);
    expect(isSessionFile('/h/.pi/agent/auth.json')).toBe(false);
    expect(isSessionFile('/h/.pi/agent/models.json')).toBe(false);
    expect(isSessionFile('/h/runs/capture.jsonl')).toBe(true);
    expect(isSessionFile('/h/runs/zed-export.json')).toBe(true);
    expect(isSessionFile('/h/runs/notes.txt')).toBe(false);
    expect(isSessionFile('/h/.local/share/opencode/opencode.db')).toBe(true);
    expect(isSessionFile('/h/.local/share/opencode/opencode-dev.db')).toBe(true);
    expect(isSessionFile('/h/.local/share/opencode/opencode.db-wal')).toBe(false);
    expect(isSessionFile('/h/.local/share/opencode/storage/session/p/ses_1.json')).toBe(false);
    expect(isSessionFile('/h/.local/share/opencode/log/2026-12-02T035057.log')).toBe(false);
    expect(isSessionFile('/h/.local/share/opencode/auth.json')).toBe(false);
    expect(isSessionFile('/h/.config/opencode/opencode.json')).toBe(false);
    expect(isSessionFile('/h/copies/opencode.db')).toBe(true);
    expect(isSessionFile('/h/runs/other.db')).toBe(false);
    const clineSession = '/h/.cline/data/sessions/1796192429067_g2n1j';
    expect(isSessionFile(`${clineSession}/1796192429067_g2n1j.messages.json`)).toBe(true);
    expect(isSessionFile(`${clineSession}/agent_1796192430520_zqzsx4.messages.json`)).toBe(true);
    expect(isSessionFile(`${clineSession}/1796192429067_g2n1j.json`)).toBe(false);
    expect(isSessionFile(`${clineSession}/1796192429067_g2n1j.compaction.json`)).toBe(false);
    expect(isSessionFile('/h/.cline/data/settings/providers.json')).toBe(false);
    expect(isSessionFile('/h/.cline/data/db/sessions.db')).toBe(false);
    expect(isSessionFile('/h/.cline/data/logs/cline.log')).toBe(false);
    // A moved sessions folder: a session's own `<id>.json` is still not one.
    expect(isSessionFile('/srv/cline-sessions/1796192429067_g2n1j/1796192429067_g2n1j.json')).toBe(false);
    expect(isSessionFile('/srv/cline-sessions/1796192429067_g2n1j/1796192429067_g2n1j.messages.json')).toBe(true);
  });

  test("a Cline sub-agent's file names its session's messages, and a session where its sub-agents are", () => {
    const folder = '/h/.cline/data/sessions/1796192429067_g2n1j';
    const session = `${folder}/1796192429067_g2n1j.messages.json`;
    expect(parentSessionFileOf(`${folder}/agent_1796192430520_zqzsx4.messages.json`)).toBe(session);
    expect(parentSessionFileOf(session)).toBeNull();
    const layout = subagentLayoutOf(session);
    expect(layout?.folder).toBe(folder);
    expect(layout?.isSubagentFile('agent_1796192430520_zqzsx4.messages.json')).toBe(true);
    expect(layout?.isSubagentFile('1796192429067_g2n1j.messages.json')).toBe(false);
    expect(layout?.isSubagentFile('1796192429067_g2n1j.json')).toBe(false);
    expect(headFileOf('cline', session)).toBe(`${folder}/1796192429067_g2n1j.json`);
    expect(headFileOf('cline', `${folder}/agent_1796192430520_zqzsx4.messages.json`)).toBeNull();
  });

  test("Pi's folders, as PI_CODING_AGENT_DIR and PI_CODING_AGENT_SESSION_DIR move them (a leading ~ expanded, a relative one ignored)", () => {
    const piFolders = (vars: Record<string, string>) => defaultSessionFolders({ home: '/home/ana', vars }).filter((f) => f.includes('pi'));
    expect(piFolders({ PI_CODING_AGENT_DIR: '/cfg/pi' })).toEqual(['/cfg/pi/sessions']);
    expect(piFolders({ PI_CODING_AGENT_DIR: '~/pi-agent' })).toEqual(['/home/ana/pi-agent/sessions']);
    expect(piFolders({ PI_CODING_AGENT_SESSION_DIR: '/srv/pi-sessions' })).toEqual(['/srv/pi-sessions', '/home/ana/.pi/agent/sessions']);
    expect(piFolders({ PI_CODING_AGENT_SESSION_DIR: 'relative' })).toEqual(['/home/ana/.pi/agent/sessions']);
  });

  test("a Claude Code sub-agent's file names its session's, and a session where its sub-agents are", () => {
    expect(parentSessionFileOf('/h/.claude/projects/-p/s1/subagents/agent-a1.jsonl')).toBe('/h/.claude/projects/-p/s1.jsonl');
    expect(parentSessionFileOf('/h/.claude/projects/-p/s1.jsonl')).toBeNull();
    const layout = subagentLayoutOf('/h/.claude/projects/-p/s1.jsonl');
    expect(layout?.folder).toBe('/h/.claude/projects/-p/s1/subagents');
    expect(layout?.isSubagentFile('agent-a1.jsonl')).toBe(true);
    expect(layout?.isSubagentFile('agent-a1.meta.json')).toBe(false);
  });

  test("a Qwen Code sub-agent's file names its session's chat, and a chat where its sub-agents are", () => {
    const chat = '/h/.qwen/projects/-w/chats/2258bfa4.jsonl';
    expect(parentSessionFileOf('/h/.qwen/projects/-w/subagents/2258bfa4/agent-general-purpose-call_1.jsonl')).toBe(chat);
    expect(parentSessionFileOf(chat)).toBeNull();
    const layout = subagentLayoutOf(chat);
    expect(layout?.folder).toBe('/h/.qwen/projects/-w/subagents/2258bfa4');
    expect(layout?.isSubagentFile('agent-general-purpose-call_1.jsonl')).toBe(true);
    expect(layout?.isSubagentFile('agent-general-purpose-call_1.meta.json')).toBe(false);
    // Claude Code's layout is untouched.
    expect(subagentLayoutOf('/h/.claude/projects/-p/s1.jsonl')?.folder).toBe('/h/.claude/projects/-p/s1/subagents');
  });

  test('formats by the names people use', () => {
    expect(formatName('qwen-code')).toBe('Qwen Code');
    expect(formatName('claude-code')).toBe('Claude Code');
    expect(formatName('acp-capture')).toBe('loupe tee');
    expect(formatName('pi')).toBe('Pi');
    expect(formatName('opencode')).toBe('OpenCode');
    expect(formatName('cline')).toBe('Cline');
    expect(formatName('something-new')).toBe('something-new');
  });
});

describe('titles', () => {
  test("the person's words, without the harness's wrapping", () => {
    expect(promptTitle('<environment_context>\n  <cwd>/x</cwd>\n</environment_context>')).toBeNull();
    expect(promptTitle('<local-command-caveat>Caveat: The messages below…</local-command-caveat>')).toBeNull();
    expect(promptTitle('# AGENTS.md instructions for /repo\n\nBe nice.')).toBeNull();
    expect(promptTitle('<command-name>/model</command-name>\n  <command-message>model</command-message>\n  <command-args>opus</command-args>')).toEqual({ title: '/model opus', isCommand: true });
    expect(promptTitle('Fix the\n\tflaky   test\u001b[31m')).toEqual({ title: 'Fix the flaky test [31m', isCommand: false });
    expect(promptTitle('x'.repeat(500))?.title).toHaveLength(120);
  });

  test('a real Claude Code log: the prompt after its /model command; a Codex rollout: the prompt, not its context', async () => {
    const prompt = 'Please tidy up notes.txt and report on the workspace.';
    expect((await headOfText(fixture('native/claude-code-2.1.83_via-claude-agent-acp.jsonl'))).title).toBe(prompt);
    expect((await headOfText(fixture('native/codex-0.137.0_rollout.jsonl'))).title).toBe(prompt);
    expect((await headOfText(fixture('native/claude-agent-acp.acp.jsonl'))).title).toBe(prompt);
  });

  test('a real Qwen Code chat: its session, working directory, start and first prompt; its sub-agent: the agent and its task', async () => {
    expect(await headOfText(fixture('native/qwen-code-0.24.4_chat.jsonl'))).toEqual({
      format: 'qwen-code', sessionId: '2258bfa4-6581-425d-931a-ea0485616774', cwd: '/tmp/qwen-rec.b3fWmL/ws', startMs: Date.parse('2026-12-02T03:50:56.486Z'),
      // The prompt, cut at 120 characters.
      title: 'Tidy my notes: read notes.txt, look around, fix the greeting, write out/result.txt, try a couple of commands and have a…',
      titleIsCommand: false,
    });
    const sub = await headOfText(fixture('native/qwen-code-0.24.4_subagent.jsonl'));
    expect([sub.format, sub.sessionId, sub.title]).toEqual(['qwen-code', 'general-purpose-call_fake_8_10', 'SUBAGENT-TASK: count the TODO lines in notes.txt and report the number.']);
  });

  test('a real Pi session: its id, working directory, start and first prompt from its header and first user message', async () => {
    const head = await headOfText(fixture('native/pi-0.73.1_two-turns-and-a-branch.jsonl'));
    expect(head).toEqual({
      format: 'pi', sessionId: '01a234e0-1d75-7524-a9b9-879ced84ded2', cwd: '/tmp/pi-record.XGDBKc/ws', startMs: Date.parse('2026-12-02T03:50:32.576Z'),
      title: 'Please tidy up notes.txt and report on the workspace.', titleIsCommand: false,
    });
  });

  test("a real Cline session: its id, start and first prompt from its pretty-printed messages; its directory from the file beside them", async () => {
    const head = await headOfText(fixture('native/cline-3.0.65_tidy-notes.messages.json'));
    // Cline's `<user_input mode="act">` wrapping is not the person's.
    expect(head).toEqual({
      format: 'cline', sessionId: '1796192429067_g2n1j', cwd: null, startMs: 1796192429342,
      title: 'Please tidy up notes.txt and report on the workspace.', titleIsCommand: false,
    });
    noteHeadFile(head, fixture('cline/1796192429067_g2n1j.json'));
    expect([head.cwd, head.startMs]).toEqual(['/tmp/cline-rec/out/main/ws', Date.parse('2026-12-02T06:20:29.079Z')]);
    const sub = await headOfText(fixture('native/cline-3.0.65_tidy-notes_subagent.messages.json'));
    expect([sub.format, sub.sessionId, sub.title]).toEqual(['cline', '1796192429067_g2n1j__agent_1796192430520_zqzsx4', '[sub-agent] Count the TODO lines in notes.txt.']);
  });

  test('a session whose only prompt is a slash command is titled by it', async () => {
    const line = JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: '<command-name>/clear</command-name>' } });
    expect((await headOfText(`${line}\n`)).title).toBe('/clear');
  });
});

describe('OpenCode', () => {
  const db = readFileSync(new URL('../../../fixtures/native/opencode-1.18.33_tidy-notes.db', import.meta.url));

  test("a database's head: its latest session a person started, OpenCode's title for it, the earliest start in it", async () => {
    expect(await headOfOpenCodeDatabase(db)).toEqual({
      format: 'opencode', sessionId: 'ses_dcb195a86ffePtpFwkbooH24Z8', cwd: '/tmp/oc-scratch/out/main/ws', startMs: 1796183860601,
      title: 'Tidy the notes', titleIsCommand: false,
    });
  });

  test("while OpenCode's title is still its placeholder, the first prompt titles the session", async () => {
    const SQL = await loadSqlJs();
    const copy = new SQL.Database(db);
    copy.run("UPDATE session SET title = 'New session - 2026-12-02T03:57:40.601Z'");
    const head = await headOfOpenCodeDatabase(copy.export());
    copy.close();
    // `opencode run` quotes a message holding spaces: the prompt as OpenCode kept it.
    expect(head.title).toBe('"Please tidy up notes.txt and report on the workspace."');
  });

  test('bytes that are no database say nothing', async () => {
    expect((await headOfOpenCodeDatabase(new TextEncoder().encode('SQLite format 3\0 and no more'))).format).toBe('unknown');
  });
});

describe('releases newer than those tested', () => {
  test('a Claude Code 2.2 line is said to be newer; a tested or older release is not; versions compare by number', () => {
    expect(untestedRelease('claude-code', { type: 'user', version: '2.2.0' })).toEqual({ name: 'Claude Code', version: '2.2.0', tested: ['2.1.44', '2.1.83'] });
    expect(untestedRelease('claude-code', { type: 'user', version: '2.1.83' })).toBeNull();
    expect(untestedRelease('claude-code', { type: 'user' })).toBeNull();
    expect(untestedRelease('codex', { type: 'session_meta', payload: { cli_version: '0.140.1' } })?.version).toBe('0.140.1');
    expect(compareVersions('2.1.100', '2.1.83')).toBeGreaterThan(0);
    expect(untestedRelease('cline', { sessionId: 's', origin: { version: '3.1.0' }, messages: [] })?.version).toBe('3.1.0');
    expect(untestedRelease('cline', { sessionId: 's', origin: { version: '3.0.65' }, messages: [] })).toBeNull();
  });
});
