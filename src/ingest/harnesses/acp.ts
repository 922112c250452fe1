// ACP traffic however it was recorded (CONTRACTS §1): `loupe tee`'s captures, which have a folder of
// their own, and the shapes other recorders write, which live wherever a person saved them.
import { isJsonObject, type JsonObject } from '../json';
import type { Shape } from '../records';
import { noteTitle, objectAt, stringAt, textOfContent } from './headFields';
import { absoluteVar, joinPath, segmentsOf } from './paths';
import type { Harness, SessionHead } from './types';

/** What a line of ACP says: the session it is about, the directory it opens, the prompt it sends. */
function noteAcpHead(head: SessionHead, value: JsonObject): void {
  const message = acpMessageOf(value);
  const params = objectAt(message, 'params');
  const result = objectAt(message, 'result');
  head.sessionId ??= stringAt(value, 'sessionId') ?? stringAt(params, 'sessionId') ?? stringAt(result, 'sessionId');
  head.cwd ??= stringAt(value, 'cwd') ?? stringAt(params, 'cwd');
  if (message?.method === 'session/prompt') {
    const text = textOfContent(params?.prompt);
    if (text !== null) noteTitle(head, text);
    return;
  }
  // Recorders that keep only updates: the user's message comes back as chunks (a first chunk is enough for a title).
  const update = objectAt(params, 'update') ?? objectAt(value, 'update') ?? (typeof value.sessionUpdate === 'string' ? value : undefined);
  if (update?.sessionUpdate === 'user_message_chunk') {
    const text = textOfContent([objectAt(update, 'content') ?? {}]);
    if (text !== null) noteTitle(head, text);
  }
}

/** The JSON-RPC message a line holds: itself, or in a capture's `msg`, acpx's `message`, an inspector trace's `json`. */
function acpMessageOf(value: JsonObject): JsonObject | undefined {
  const wrapped = objectAt(value, 'msg') ?? objectAt(value, 'message');
  if (wrapped) return wrapped;
  if (typeof value.json === 'string') {
    try {
      const inner: unknown = JSON.parse(value.json);
      return isJsonObject(inner) ? inner : undefined;
    } catch {
      return undefined;
    }
  }
  return value;
}

export const loupeTee: Harness = {
  id: 'acp-capture',
  name: 'loupe tee',
  folderVars: ['XDG_STATE_HOME'],
  folders: ({ home, vars }) => [joinPath(absoluteVar(vars.XDG_STATE_HOME, joinPath(home, '.local', 'state')), 'loupe', 'captures')],
  ownsFile(path) {
    const segments = segmentsOf(path);
    const at = segments.lastIndexOf('captures');
    if (at > 0 && segments[at - 1] === 'loupe' && at === segments.length - 2) return path.endsWith('.jsonl');
    return undefined;
  },
  noteHead: noteAcpHead,
};

const OTHER_ACP_SHAPES: readonly [Shape, string][] = [
  ['acp-jsonrpc', 'ACP'], ['acpx-log', 'acpx'], ['inspector-trace', 'ACP inspector'], ['text-log', 'JetBrains'], ['zed-export', 'Zed'],
  ['grok-updates', 'Grok Build'], ['acp-updates', 'ACP updates'], ['ledger', 'Ledger'],
];

/** The other recorders' shapes: no folder of their own, a name, and what their lines say. */
export const otherAcpRecorders: Harness[] = OTHER_ACP_SHAPES.map(([id, name]) => ({
  id, name, folders: () => [], folderVars: [], ownsFile: () => undefined, noteHead: noteAcpHead,
}));
