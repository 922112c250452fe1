// Gemini CLI: `~/.gemini/tmp/<project>/chats/session-<start>-<id8>.jsonl` (0.61; older releases one
// `session-*.json` object), a sub-agent's chat in `chats/<parent session>/` (CONTRACTS §11).
import { isJsonObject, type JsonObject } from '../json';
import { noteTitle, stringAt } from './headFields';
import { basenameOf, dirnameOf, joinPath, segmentsOf } from './paths';
import type { Harness, SessionHead } from './types';

/** Gemini CLI's first user record describes the workspace: its first directory is where the agent worked. */
const WORKSPACE = /Workspace Directories:\**\s*\n\s*-\s*(\/[^\n]*)/;

function noteRecord(head: SessionHead, record: JsonObject): void {
  if (record.type !== 'user') return;
  const content = record.content;
  const parts = typeof content === 'string' ? [content] : Array.isArray(content) ? content : [content];
  for (const part of parts) {
    const text = typeof part === 'string' ? part : isJsonObject(part) && typeof part.text === 'string' && part.thought !== true ? part.text : null;
    if (text === null) continue;
    head.cwd ??= WORKSPACE.exec(text)?.[1]?.trim() ?? null;
    noteTitle(head, text);
  }
}

export const geminiCli: Harness = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  folderVars: [],
  folders: ({ home }) => [joinPath(home, '.gemini', 'tmp')],
  ownsFile(path) {
    const segments = segmentsOf(path);
    const root = segments.lastIndexOf('.gemini');
    // Beside the chats Gemini CLI keeps logs, shell history and checkpoints: JSON, not sessions.
    if (root < 0) return undefined;
    const chats = segments.indexOf('chats', root);
    return segments[root + 1] === 'tmp' && chats === root + 3 && /\.jsonl?$/.test(basenameOf(path));
  },
  noteHead(head, value) {
    const set = isJsonObject(value.$set) ? value.$set : undefined;
    const meta = set ?? value;
    head.sessionId ??= stringAt(meta, 'sessionId');
    if (Array.isArray(meta.directories) && typeof meta.directories[0] === 'string') head.cwd ??= meta.directories[0];
    if (Array.isArray(meta.messages)) for (const record of meta.messages) if (isJsonObject(record)) noteRecord(head, record);
    if (set === undefined && typeof value.id === 'string') noteRecord(head, value);
  },
  // `~/.gemini/tmp/<project>/chats/…`: the project's folder name (a hash in older releases).
  projectFromPath: (path) => {
    const segments = segmentsOf(dirnameOf(path));
    const chats = segments.lastIndexOf('chats');
    return chats > 0 ? (segments[chats - 1] ?? null) : null;
  },
};
