// Pi (@mariozechner/pi-coding-agent): `~/.pi/agent/sessions/--<dashed cwd>--/<time>_<session>.jsonl`.
// $PI_CODING_AGENT_DIR moves `~/.pi/agent`; $PI_CODING_AGENT_SESSION_DIR puts every session file in
// one folder of its own (no per-directory folders). Pi expands a leading `~` in both.
import { isJsonObject } from '../json';
import { noteTitle, objectAt, stringAt, textOfContent } from './headFields';
import { basenameOf, dirnameOf, joinPath, segmentsOf } from './paths';
import type { Harness, HarnessEnv } from './types';

/** A folder variable as Pi reads it: `~` expanded; a relative one is not a place Loupe can find. */
function folderVar(value: string | undefined, home: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const expanded = value === '~' ? home : value.startsWith('~/') ? joinPath(home, value.slice(2)) : value;
  return expanded.startsWith('/') ? expanded : undefined;
}

function folders({ home, vars }: HarnessEnv): string[] {
  const agent = folderVar(vars.PI_CODING_AGENT_DIR, home) ?? joinPath(home, '.pi', 'agent');
  const own = folderVar(vars.PI_CODING_AGENT_SESSION_DIR, home);
  const sessions = joinPath(agent, 'sessions');
  return own === undefined || own === sessions ? [sessions] : [own, sessions];
}

export const pi: Harness = {
  id: 'pi',
  name: 'Pi',
  folderVars: ['PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR'],
  folders,
  ownsFile(path) {
    const segments = segmentsOf(path);
    const root = segments.lastIndexOf('.pi');
    if (root < 0 || segments[root + 1] !== 'agent') return undefined;
    // Beside the sessions Pi keeps its settings, models and credentials (auth.json): never sessions.
    return segments[root + 2] === 'sessions' && path.endsWith('.jsonl');
  },
  noteHead(head, value) {
    if (value.type === 'session' && !('parentId' in value)) {
      head.sessionId ??= stringAt(value, 'id');
      head.cwd ??= stringAt(value, 'cwd');
      return;
    }
    const message = objectAt(value, 'message');
    if (value.type !== 'message' || !isJsonObject(message) || message.role !== 'user') return;
    const text = textOfContent(message.content);
    if (text !== null) noteTitle(head, text);
  },
  // `--tmp-app--`: the working directory with `/` as `-`, between dashes.
  projectFromPath: (path) => {
    const folder = basenameOf(dirnameOf(path));
    return /^--.*--$/.test(folder) ? folder : null;
  },
};
