// What a call's input says, read the way its view needs it: the edit it made, the command it ran,
// what it searched for. The keys are data, next to the subject keys (subject.ts), so a harness
// that names a field differently is taught here once, for the views, exports and the CLI alike.
// Only own properties count: a `__proto__` or `constructor` key in the input is just a key.
import { isJsonObject } from '../ingest/json';
import type { ToolCall } from './types';

/** Keys tried in order for each thing a view shows; the first whose value is a string wins. */
const INPUT_KEYS = {
  path: ['file_path', 'path', 'filePath', 'target_file'],
  oldText: ['old_string', 'old', 'oldText', 'old_str'],
  newText: ['new_string', 'new', 'newText', 'new_str'],
  editOldText: ['old_string', 'old'],
  editNewText: ['new_string', 'new'],
  writtenText: ['content', 'contents', 'file_text'],
  command: ['command', 'cmd'],
  cwd: ['cwd', 'workdir', 'directory'],
  pattern: ['pattern', 'query', 'glob', 'regex', 'include'],
  searchedIn: ['path', 'dir_path', 'directory', 'target_directory', 'cwd'],
  url: ['url', 'uri'],
  prompt: ['prompt'],
  firstLine: ['offset', 'line', 'start_line'],
  planEntryText: ['content', 'step', 'text', 'title', 'description'],
  /**
   * Text output in `rawOutput` or a ledger result, whatever the harness called it; each different
   * text is shown once. Codex's exec output holds one text up to three times: `aggregated_output`
   * (stdout and stderr as they came), `formatted_output` (the same, as the model was shown it) and
   * `stdout` / `stderr` (their parts), so the combined one comes first (see `outputText`).
   */
  output: ['output', 'aggregated_output', 'formatted_output', 'stdout', 'content', 'text', 'result', 'stderr'],
  exitCode: ['exit_code', 'exitCode', 'code'],
} as const satisfies Record<string, readonly string[]>;

function asRecord(value: unknown): Record<string, unknown> | null {
  return isJsonObject(value) ? value : null;
}

/** The first of `keys` that the object itself holds as a string. */
function pickString(obj: Record<string, unknown> | null, keys: readonly string[]): string | undefined {
  if (!obj) return undefined;
  for (const key of keys) {
    if (!Object.hasOwn(obj, key)) continue;
    const value = obj[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** The call's input: the `x.ai/tool` envelope's, else `rawInput`, else the ledger's `args`. */
export function inputOf(call: Pick<ToolCall, 'tool' | 'rawInput' | 'ledger'>): Record<string, unknown> {
  return asRecord(call.tool?.input) ?? asRecord(call.rawInput) ?? asRecord(call.ledger?.args) ?? {};
}

export interface FileEdit {
  path?: string;
  oldText: string;
  newText: string;
}

/**
 * The edits a call made: its ACP `diff` content blocks, else what its input describes (one
 * old/new pair, a list of `edits`, or, for a Write, the whole new content).
 */
export function editsOf(call: Pick<ToolCall, 'content' | 'tool' | 'rawInput' | 'ledger' | 'label'>): FileEdit[] {
  const out: FileEdit[] = [];
  for (const c of call.content ?? []) if (c.type === 'diff') out.push({ path: c.path, oldText: c.oldText ?? '', newText: c.newText });
  if (out.length > 0) return out;
  const input = inputOf(call);
  const path = pickString(input, INPUT_KEYS.path);
  const withPath = (edit: Omit<FileEdit, 'path'>): FileEdit => (path !== undefined ? { ...edit, path } : edit);
  const oldText = pickString(input, INPUT_KEYS.oldText);
  const newText = pickString(input, INPUT_KEYS.newText);
  if (oldText !== undefined || newText !== undefined) return [withPath({ oldText: oldText ?? '', newText: newText ?? '' })];
  const edits = own(input, 'edits');
  if (Array.isArray(edits)) {
    for (const edit of edits) {
      const r = asRecord(edit);
      const o = pickString(r, INPUT_KEYS.editOldText);
      const n = pickString(r, INPUT_KEYS.editNewText);
      if (o !== undefined || n !== undefined) out.push(withPath({ oldText: o ?? '', newText: n ?? '' }));
    }
    if (out.length > 0) return out;
  }
  const written = pickString(input, INPUT_KEYS.writtenText);
  if (written !== undefined && call.label === 'Write') return [withPath({ oldText: '', newText: written })];
  return [];
}

/** The command a call ran (a string, or an argument list joined), and where, when its input says. */
export function commandOf(call: Pick<ToolCall, 'tool' | 'rawInput' | 'ledger' | 'subject' | 'title'>): { command?: string; cwd?: string } {
  const input = inputOf(call);
  const listed = own(input, 'command');
  const argv = Array.isArray(listed) ? listed : Array.isArray(call.ledger?.args) ? (call.ledger.args as unknown[]) : null;
  const command =
    pickString(input, INPUT_KEYS.command) ?? (argv ? argv.filter((x) => typeof x === 'string').join(' ') : undefined) ?? call.subject ?? call.title;
  const cwd = pickString(input, INPUT_KEYS.cwd);
  return { ...(command !== undefined ? { command } : {}), ...(cwd !== undefined ? { cwd } : {}) };
}

/** The first line a Read call read (1-based; 1 when the input does not say). */
export function firstLineOf(call: Pick<ToolCall, 'tool' | 'rawInput' | 'ledger' | 'locations'>): number {
  const input = inputOf(call);
  let first: unknown = call.locations?.[0]?.line ?? 1;
  for (const key of INPUT_KEYS.firstLine) {
    const value = own(input, key);
    if (value !== undefined && value !== null) {
      first = value;
      break;
    }
  }
  const n = Number(first);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 1;
}

/** What a Search or List Files call looked for, and where. */
export function searchOf(call: Pick<ToolCall, 'tool' | 'rawInput' | 'ledger'>): { pattern?: string; where?: string } {
  const input = inputOf(call);
  const pattern = pickString(input, INPUT_KEYS.pattern);
  const where = pickString(input, INPUT_KEYS.searchedIn);
  return { ...(pattern !== undefined ? { pattern } : {}), ...(where !== undefined ? { where } : {}) };
}

/** The address a Web Fetch call fetched, and the prompt it was given. */
export function fetchOf(call: Pick<ToolCall, 'tool' | 'rawInput' | 'ledger' | 'subject'>): { url: string; prompt?: string } {
  const input = inputOf(call);
  const prompt = pickString(input, INPUT_KEYS.prompt);
  return { url: pickString(input, INPUT_KEYS.url) ?? call.subject ?? '', ...(prompt !== undefined ? { prompt } : {}) };
}

/** A Plan call's entries (`todos` or `plan`), or null when its input holds no list. */
export function planEntriesOf(call: Pick<ToolCall, 'tool' | 'rawInput' | 'ledger'>): { content: string; status: string }[] | null {
  const input = inputOf(call);
  const todos = own(input, 'todos');
  const plan = own(input, 'plan');
  const list = Array.isArray(todos) ? todos : Array.isArray(plan) ? plan : null;
  if (!list) return null;
  return list.map((entry: unknown) => {
    const r = asRecord(entry);
    return { content: pickString(r, INPUT_KEYS.planEntryText) ?? JSON.stringify(entry), status: pickString(r, ['status']) ?? 'pending' };
  });
}

/** The output keys that hold stdout and stderr together, and the parts they are made of. */
const COMBINED_OUTPUT: readonly string[] = ['aggregated_output', 'formatted_output'];
const OUTPUT_PARTS: readonly string[] = ['stdout', 'stderr'];

/**
 * Text output carried in `rawOutput` (or a ledger result): a string, or its text fields joined,
 * each text once. A text the same as one already taken is left out, and so are `stdout` and
 * `stderr` when a combined output already taken holds them.
 */
export function outputText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const r = asRecord(value);
  if (!r) return undefined;
  const parts: string[] = [];
  let combined: string | undefined;
  for (const key of INPUT_KEYS.output) {
    const text = own(r, key);
    if (typeof text !== 'string' || !text) continue;
    const trimmed = text.trimEnd();
    if (parts.some((p) => p.trimEnd() === trimmed)) continue;
    if (OUTPUT_PARTS.includes(key) && combined !== undefined && combined.includes(trimmed)) continue;
    if (COMBINED_OUTPUT.includes(key)) combined ??= text;
    parts.push(text);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/** The exit code a call's output reports, if it reports one. */
export function reportedExitCode(call: Pick<ToolCall, 'rawOutput' | 'ledger'>): number | undefined {
  for (const source of [asRecord(call.rawOutput), asRecord(call.ledger?.result)]) {
    if (!source) continue;
    for (const key of INPUT_KEYS.exitCode) {
      const code = own(source, key);
      if (typeof code === 'number') return code;
    }
  }
  return undefined;
}

/**
 * The exit code an output records as data (CONTRACTS §11), or undefined: an object's own
 * `exit_code` / `exitCode` / `code` (a number), or its `metadata.exit_code` (Codex). A text is read
 * only for a command (`command`): Codex's JSON output with `metadata.exit_code`, a line
 * `Process exited with code N`, a leading `Exit code: N` (Codex) or `Exit code N` (Claude Code,
 * `Error: Exit code N` in its own log), or Gemini CLI's line `Exit Code: N`.
 */
export function exitCodeInOutput(output: unknown, command: boolean): number | undefined {
  const record = asRecord(output);
  if (record) {
    for (const key of INPUT_KEYS.exitCode) {
      const code = own(record, key);
      if (isExitCode(code)) return code;
    }
    const metadata = asRecord(own(record, 'metadata'));
    const code = metadata ? own(metadata, 'exit_code') : undefined;
    return isExitCode(code) ? code : undefined;
  }
  if (!command || typeof output !== 'string') return undefined;
  if (output.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(output);
    } catch {
      parsed = undefined;
    }
    if (isJsonObject(parsed)) {
      const code = exitCodeInOutput(parsed, false);
      if (code !== undefined) return code;
    }
  }
  const match = EXIT_CODE_TEXT.exec(output) ?? PROCESS_EXITED.exec(output) ?? GEMINI_EXIT_CODE.exec(output);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

const EXIT_CODE_TEXT = /^(?:Error: )?Exit code:? (-?\d{1,9})\b/;
const PROCESS_EXITED = /^Process exited with code (-?\d{1,9})\r?$/m;
const GEMINI_EXIT_CODE = /^Exit Code: (-?\d{1,9})\r?$/m;

function isExitCode(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}
