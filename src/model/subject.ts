// Subjects: the one reading a person recognises a call by (CONTRACTS §6).
import type { ToolCall } from './types';
import { isJsonObject } from '../ingest/json';

export const SUBJECT_KEYS = [
  'path', 'file_path', 'filePath', 'target_file', 'absolute_path', 'notebook_path', 'directory', 'dir_path',
  'target_directory', 'addr', 'url', 'uri', 'command', 'cmd', 'program', 'arm', 'pattern', 'query', 'description',
] as const;

/** The ledger's own preferred keys (`ToolCalled::subject_of`). */
export const LEDGER_SUBJECT_KEYS = ['path', 'addr', 'program', 'arm'] as const;


function stringReading(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return value.join(' ');
  return null;
}

/**
 * `subject_of(payload)`: the first preferred key whose value is a string (or a non-empty array of
 * strings), else the first string value in source key order, else none. `keyOrder` is the source
 * order when it differs from JavaScript's enumeration order (integer-like keys).
 */
export function subjectOf(payload: unknown, keys: readonly string[] = SUBJECT_KEYS, keyOrder?: readonly string[]): string | null {
  if (!isJsonObject(payload)) return null;
  for (const key of keys) {
    if (!Object.hasOwn(payload, key)) continue;
    const reading = stringReading(payload[key]);
    if (reading !== null) return reading;
  }
  for (const key of keyOrder ?? Object.keys(payload)) {
    const value = payload[key];
    if (typeof value === 'string') return value;
  }
  return null;
}

export function subjectOfCall(call: Pick<ToolCall, 'ledger' | 'tool' | 'rawInput' | 'rawInputKeyOrder' | 'locations'>): string | null {
  const ledger = call.ledger;
  if (ledger) {
    if (ledger.subject !== undefined) return ledger.subject;
    return subjectOf(ledger.args, LEDGER_SUBJECT_KEYS, ledger.argsKeyOrder);
  }
  const fromEnvelope = subjectOf(call.tool?.input, SUBJECT_KEYS, call.tool?.inputKeyOrder);
  if (fromEnvelope !== null) return fromEnvelope;
  const fromRawInput = subjectOf(call.rawInput, SUBJECT_KEYS, call.rawInputKeyOrder);
  if (fromRawInput !== null) return fromRawInput;
  return call.locations?.[0]?.path ?? null;
}
