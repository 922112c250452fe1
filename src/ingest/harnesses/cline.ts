// Cline (the CLI, 3.0): `~/.cline/data/sessions/<id>/<id>.messages.json`, each sub-agent's in
// `agent_<agentId>.messages.json` beside it, and `<id>.json` (what the session ran with: its
// directory, start, status) too. $CLINE_SESSION_DATA_DIR names the sessions folder, else
// $CLINE_DATA_DIR the data folder, else $CLINE_DIR the `~/.cline` folder (docs/harnesses/cline.md).
import { isJsonObject, type JsonObject } from '../json';
import { isClineHead, isClineMessage, isClineSessionMeta } from '../formats/clineShapes';
import { noteTitle, objectAt, stringAt } from './headFields';
import { absoluteVar, basenameOf, dirnameOf, joinPath, segmentsOf } from './paths';
import type { Harness, SessionHead } from './types';

const MESSAGES = '.messages.json';
const SUBAGENT_FILE = /^agent_[^/]+\.messages\.json$/;
/** Cline names a session `<epoch ms>_<5 letters>`. */
const SESSION_ID = /^\d{10,}_[a-z0-9]+$/;

/** Cline wraps what a person typed in `<user_input mode="act">`: the title is what is inside. */
function promptOf(text: string): string {
  return /^<user_input\b[^>]*>([\s\S]*)<\/user_input>\s*$/.exec(text.trim())?.[1] ?? text;
}

function noteMessage(head: SessionHead, value: JsonObject): void {
  if (head.startMs === undefined && typeof value.ts === 'number') head.startMs = value.ts;
  if (value.role !== 'user' || !Array.isArray(value.content)) return;
  for (const block of value.content) {
    if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string') noteTitle(head, promptOf(block.text));
  }
}

function noteSessionMeta(head: SessionHead, value: JsonObject): void {
  head.sessionId ??= stringAt(value, 'session_id');
  head.cwd ??= stringAt(value, 'cwd') ?? stringAt(value, 'workspace_root');
  const started = Date.parse(stringAt(value, 'started_at') ?? '');
  if (Number.isFinite(started) && (head.startMs === undefined || started < head.startMs)) head.startMs = started;
  const prompt = stringAt(value, 'prompt');
  if (prompt !== null) noteTitle(head, prompt);
}

export const cline: Harness = {
  id: 'cline',
  name: 'Cline',
  folderVars: ['CLINE_SESSION_DATA_DIR', 'CLINE_DATA_DIR', 'CLINE_DIR'],
  folders: ({ home, vars }) => {
    const data = absoluteVar(vars.CLINE_DATA_DIR, joinPath(absoluteVar(vars.CLINE_DIR, joinPath(home, '.cline')), 'data'));
    return [absoluteVar(vars.CLINE_SESSION_DATA_DIR, joinPath(data, 'sessions'))];
  },
  ownsFile(path) {
    const segments = segmentsOf(path);
    const name = basenameOf(path);
    const folder = segments.at(-2) ?? '';
    // `<id>.json` and `<id>.compaction.json` beside a session's messages are not sessions, wherever the folder was moved.
    if (SESSION_ID.test(folder) && (name === `${folder}.json` || name === `${folder}.compaction.json`)) return false;
    const root = segments.lastIndexOf('.cline');
    if (root < 0) return undefined;
    // Under ~/.cline only the sessions' messages are sessions (settings, databases, logs, caches, teams are other files).
    return segments[root + 1] === 'data' && segments[root + 2] === 'sessions' && segments.length === root + 5 && name.endsWith(MESSAGES);
  },
  parentFileOf(path) {
    if (!SUBAGENT_FILE.test(basenameOf(path))) return null;
    const folder = dirnameOf(path);
    return joinPath(folder, `${basenameOf(folder)}${MESSAGES}`);
  },
  subagentFolderOf(sessionPath) {
    const folder = dirnameOf(sessionPath);
    return basenameOf(sessionPath) === `${basenameOf(folder)}${MESSAGES}` ? folder : null;
  },
  isSubagentFile: (name) => SUBAGENT_FILE.test(name),
  headFileOf(path) {
    const folder = dirnameOf(path);
    return basenameOf(path) === `${basenameOf(folder)}${MESSAGES}` ? joinPath(folder, `${basenameOf(folder)}.json`) : null;
  },
  testedVersions: ['3.0.65'],
  versionOf: (value) => stringAt(objectAt(value, 'origin'), 'version'),
  noteHead(head, value) {
    if (isClineHead(value)) head.sessionId ??= stringAt(value, 'sessionId');
    else if (isClineMessage(value)) noteMessage(head, value);
    else if (isClineSessionMeta(value)) noteSessionMeta(head, value);
  },
};
