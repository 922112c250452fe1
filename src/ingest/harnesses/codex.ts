// Codex: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` ($CODEX_HOME moves `~/.codex`);
// `archived_sessions/` holds the rollouts a person archived (CONTRACTS §10).
import { noteTitle, objectAt, stringAt, textOfContent } from './headFields';
import { absoluteVar, basenameOf, joinPath, segmentsOf } from './paths';
import type { Harness } from './types';

export const codex: Harness = {
  id: 'codex',
  name: 'Codex',
  folderVars: ['CODEX_HOME'],
  folders: ({ home, vars }) => {
    const root = absoluteVar(vars.CODEX_HOME, joinPath(home, '.codex'));
    return [joinPath(root, 'sessions'), joinPath(root, 'archived_sessions')];
  },
  testedVersions: ['0.137.0'],
  versionOf: (value) => (value.type === 'session_meta' ? stringAt(objectAt(value, 'payload'), 'cli_version') : null),
  ownsFile(path) {
    const segments = segmentsOf(path);
    const root = segments.lastIndexOf('.codex');
    // history.jsonl, logs and config under ~/.codex are not sessions.
    if (root >= 0) return (segments[root + 1] === 'sessions' || segments[root + 1] === 'archived_sessions') && /^rollout-.*\.jsonl$/.test(basenameOf(path));
    return undefined;
  },
  noteHead(head, value) {
    const payload = objectAt(value, 'payload');
    if (value.type === 'session_meta') {
      head.sessionId ??= stringAt(payload, 'id');
      head.cwd ??= stringAt(payload, 'cwd');
    }
    head.cwd ??= value.type === 'turn_context' ? stringAt(payload, 'cwd') : null;
    // The person's words: `user_message` events; a user `message` item also carries the harness's context blocks.
    if (value.type === 'event_msg' && payload?.type === 'user_message') {
      const text = stringAt(payload, 'message');
      if (text !== null) noteTitle(head, text);
    } else if (value.type === 'response_item' && payload?.type === 'message' && payload.role === 'user') {
      const text = textOfContent(payload.content);
      if (text !== null) noteTitle(head, text);
    }
  },
};
