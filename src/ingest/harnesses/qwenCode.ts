// Qwen Code: `~/.qwen/projects/<dashed cwd>/chats/<session>.jsonl` ($QWEN_RUNTIME_DIR, else
// $QWEN_HOME, moves `~/.qwen`), each sub-agent in `<dashed cwd>/subagents/<session>/agent-<id>.jsonl`
// beside its `agent-<id>.meta.json` (0.24.4; docs/harnesses/qwen-code.md).
import { isJsonObject } from '../json';
import { noteTitle, objectAt, stringAt } from './headFields';
import { absoluteVar, basenameOf, dirnameOf, joinPath, segmentsOf } from './paths';
import type { Harness } from './types';

const SUBAGENT_FILE = /^agent-[^/]+\.jsonl$/;

/** `user` records a person typed: no subtype (a prompt) or a message typed mid-turn; the others are Qwen Code's own. */
const PROMPT_SUBTYPES = new Set([undefined, 'mid_turn_user_message']);

export const qwenCode: Harness = {
  id: 'qwen-code',
  name: 'Qwen Code',
  folderVars: ['QWEN_RUNTIME_DIR', 'QWEN_HOME'],
  folders: ({ home, vars }) => [joinPath(absoluteVar(vars.QWEN_RUNTIME_DIR, absoluteVar(vars.QWEN_HOME, joinPath(home, '.qwen'))), 'projects')],
  ownsFile(path) {
    const segments = segmentsOf(path);
    const root = segments.lastIndexOf('.qwen');
    if (root < 0) return undefined;
    // Under ~/.qwen only the projects' chats and sub-agents' files are sessions (settings, usage records, metadata are other JSON).
    if (segments[root + 1] !== 'projects') return false;
    const name = basenameOf(path);
    if (segments.length === root + 5 && segments[root + 3] === 'chats') return name.endsWith('.jsonl');
    return segments.length === root + 6 && segments[root + 3] === 'subagents' && SUBAGENT_FILE.test(name);
  },
  parentFileOf(path) {
    const folder = dirnameOf(path);
    if (!SUBAGENT_FILE.test(basenameOf(path)) || basenameOf(dirnameOf(folder)) !== 'subagents') return null;
    return joinPath(dirnameOf(dirnameOf(folder)), 'chats', `${basenameOf(folder)}.jsonl`);
  },
  subagentFolderOf(sessionPath) {
    if (!sessionPath.endsWith('.jsonl') || basenameOf(dirnameOf(sessionPath)) !== 'chats') return null;
    const session = basenameOf(sessionPath).slice(0, -'.jsonl'.length);
    return joinPath(dirnameOf(dirnameOf(sessionPath)), 'subagents', session);
  },
  isSubagentFile: (name) => SUBAGENT_FILE.test(name),
  testedVersions: ['0.24.4'],
  versionOf: (value) => stringAt(value, 'version'),
  noteHead(head, value) {
    // A sub-agent's records name their parent's session: the sub-agent's own is its agentId.
    head.sessionId ??= value.isSidechain === true ? stringAt(value, 'agentId') ?? stringAt(value, 'sessionId') : stringAt(value, 'sessionId');
    head.cwd ??= stringAt(value, 'cwd');
    if (value.type !== 'user' || !PROMPT_SUBTYPES.has(typeof value.subtype === 'string' ? value.subtype : undefined)) return;
    const parts = objectAt(value, 'message')?.parts;
    if (!Array.isArray(parts)) return;
    const texts = parts.flatMap((part) => (isJsonObject(part) && typeof part.text === 'string' && part.thought !== true ? [part.text] : []));
    if (texts.length > 0) noteTitle(head, texts.join('\n'));
  },
  // `~/.qwen/projects/<dashed cwd>/chats/…` or `…/subagents/<session>/…`: the dashed working directory.
  projectFromPath: (path) => {
    const segments = segmentsOf(dirnameOf(path));
    const at = Math.max(segments.lastIndexOf('chats'), segments.lastIndexOf('subagents'));
    return at > 0 ? (segments[at - 1] ?? null) : null;
  },
};
