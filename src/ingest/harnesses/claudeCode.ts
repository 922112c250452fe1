// Claude Code: `~/.claude/projects/<dashed cwd>/<session>.jsonl` ($CLAUDE_CONFIG_DIR moves
// `~/.claude`), each sub-agent in `<session>/subagents/agent-<id>.jsonl` beside its
// `agent-<id>.meta.json` (CONTRACTS §10).
import { noteTitle, objectAt, stringAt, textOfContent } from './headFields';
import { absoluteVar, basenameOf, dirnameOf, joinPath, segmentsOf } from './paths';
import type { Harness } from './types';

const SUBAGENT_FILE = /^agent-[^/]+\.jsonl$/;

export const claudeCode: Harness = {
  id: 'claude-code',
  name: 'Claude Code',
  folderVars: ['CLAUDE_CONFIG_DIR'],
  folders: ({ home, vars }) => [joinPath(absoluteVar(vars.CLAUDE_CONFIG_DIR, joinPath(home, '.claude')), 'projects')],
  ownsFile(path) {
    const segments = segmentsOf(path);
    const config = segments.lastIndexOf('.claude');
    if (basenameOf(path).endsWith('.meta.json') && segments.at(-2) === 'subagents') return false;
    // Under ~/.claude only the projects hold sessions (settings, todos and history are other JSON).
    if (config >= 0) return segments[config + 1] === 'projects' && path.endsWith('.jsonl');
    return undefined;
  },
  parentFileOf(path) {
    if (!SUBAGENT_FILE.test(basenameOf(path)) || basenameOf(dirnameOf(path)) !== 'subagents') return null;
    return `${dirnameOf(dirnameOf(path))}.jsonl`;
  },
  subagentFolderOf: (sessionPath) => (sessionPath.endsWith('.jsonl') ? joinPath(sessionPath.slice(0, -'.jsonl'.length), 'subagents') : null),
  isSubagentFile: (name) => SUBAGENT_FILE.test(name),
  testedVersions: ['2.1.44', '2.1.83'],
  versionOf: (value) => stringAt(value, 'version'),
  noteHead(head, value) {
    head.sessionId ??= stringAt(value, 'sessionId');
    head.cwd ??= stringAt(value, 'cwd');
    // A person's prompt: a user entry that is not the harness's own (isMeta) nor a tool's result.
    if (value.type !== 'user' || value.isMeta === true) return;
    const text = textOfContent(objectAt(value, 'message')?.content);
    if (text !== null) noteTitle(head, text);
  },
  // The project folder is the working directory with `/` as `-`: its name is the best there is.
  projectFromPath: (path) => {
    const folder = basenameOf(dirnameOf(path));
    return folder === 'subagents' ? basenameOf(dirnameOf(dirnameOf(dirnameOf(path)))) || null : folder || null;
  },
};
