// Subjects: the one reading a person recognises a call by (CONTRACTS §6).
import type { ToolCall } from './types';
import { isJsonObject } from '../ingest/json';

export const SUBJECT_KEYS = [
  'path', 'file_path', 'filePath', 'target_file', 'absolute_path', 'notebook_path', 'directory', 'dir_path',
  'target_directory', 'addr', 'url', 'uri', 'command', 'cmd', 'program', 'arm', 'pattern', 'query', 'description',
  'commands', 'queries', 'task', 'files',
] as const;

/** The ledger's own preferred keys (`ToolCalled::subject_of`). */
export const LEDGER_SUBJECT_KEYS = ['path', 'addr', 'program', 'arm'] as const;


const SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'zsh', 'dash', 'fish']);
const SHELL_SCRIPT_FLAGS: ReadonlySet<string> = new Set(['-c', '-lc', '-ic', '-lic', '-cl']);

/** `[SHELL, -c, SCRIPT]`'s script: Codex runs `["/bin/bash", "-lc", "ls -la"]`, and a person knows that call as `ls -la`. */
function shellScriptOf(words: readonly string[]): string | null {
  if (words.length !== 3) return null;
  const [shell, flag, script] = words as [string, string, string];
  const shellName = shell.slice(shell.lastIndexOf('/') + 1);
  return SHELLS.has(shellName) && SHELL_SCRIPT_FLAGS.has(flag) ? script : null;
}

function stringReading(key: string, value: unknown): string | null {
  if (typeof value === 'string') return value;
  // `files` as Cline's read_files sends it: objects, each with a string `path`.
  if (key === 'files' && Array.isArray(value) && value.length > 0 && value.every((file) => isJsonObject(file) && typeof file.path === 'string')) {
    return value.map((file) => (file as { path: string }).path).join(' ');
  }
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) {
    const words = value;
    const script = key === 'command' || key === 'cmd' ? shellScriptOf(words) : null;
    return script ?? words.join(' ');
  }
  return null;
}

/** The first preferred key whose value is a string (or a non-empty array of strings); no fallback. */
function preferredReading(payload: unknown, keys: readonly string[]): string | null {
  if (!isJsonObject(payload)) return null;
  for (const key of keys) {
    if (!Object.hasOwn(payload, key)) continue;
    const reading = stringReading(key, payload[key]);
    if (reading !== null) return reading;
  }
  return null;
}

/** The first top-level string value in source key order (`keyOrder` when it differs from JavaScript's enumeration order). */
function firstStringReading(payload: unknown, keyOrder?: readonly string[]): string | null {
  if (!isJsonObject(payload)) return null;
  for (const key of keyOrder ?? Object.keys(payload)) {
    const value = payload[key];
    if (typeof value === 'string') return value;
  }
  return null;
}

/**
 * `subject_of(payload)`: the first preferred key whose value is a string (or a non-empty array of
 * strings), else the first string value in source key order, else none. `keyOrder` is the source
 * order when it differs from JavaScript's enumeration order (integer-like keys).
 */
export function subjectOf(payload: unknown, keys: readonly string[] = SUBJECT_KEYS, keyOrder?: readonly string[]): string | null {
  return preferredReading(payload, keys) ?? firstStringReading(payload, keyOrder);
}

export function subjectOfCall(call: Pick<ToolCall, 'ledger' | 'tool' | 'rawInput' | 'rawInputKeyOrder' | 'locations'>): string | null {
  const ledger = call.ledger;
  if (ledger) {
    if (ledger.subject !== undefined) return ledger.subject;
    return subjectOf(ledger.args, LEDGER_SUBJECT_KEYS, ledger.argsKeyOrder);
  }
  // A location names a call better than whatever string comes first in rawInput: codex-acp's edits
  // carry `{"call_id": …, "changes": …}` and their file only in `locations` (CONTRACTS §6 rules 2–5).
  return subjectOf(call.tool?.input, SUBJECT_KEYS, call.tool?.inputKeyOrder)
    ?? preferredReading(call.rawInput, SUBJECT_KEYS)
    ?? call.locations?.[0]?.path
    ?? firstStringReading(call.rawInput, call.rawInputKeyOrder);
}
