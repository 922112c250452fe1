// Labels: the cross-harness grouping key (CONTRACTS §5). The name table is data, kept here and
// nowhere else; a new harness's tool names are added to this table.
import type { ToolKind } from '@agentclientprotocol/sdk';
import type { ToolCall } from './types';

export const LABEL_NAMES = {
  Read: ['read_file', 'hashline_read', 'read', 'Read', 'NotebookRead', 'view_image', 'read_many_files'],
  Write: ['write', 'Write', 'write_file'],
  Edit: ['search_replace', 'hashline_edit', 'apply_patch', 'edit', 'multiedit', 'patch', 'Edit', 'MultiEdit', 'NotebookEdit', 'replace', 'notebook_edit'],
  'Run Command': ['run_terminal_command', 'run_terminal_cmd', 'bash', 'Bash', 'shell', 'shell_command', 'exec_command', 'local_shell', 'run_shell_command', 'exec'],
  Search: ['grep', 'hashline_grep', 'grep_files', 'Grep', 'grep_search', 'search_file_content', 'search'],
  'List Files': ['list_dir', 'list', 'glob', 'Glob', 'LS', 'list_directory', 'ls', 'find'],
  'Web Fetch': ['web_fetch', 'webfetch', 'WebFetch'],
  'Web Search': ['web_search', 'websearch', 'WebSearch', 'google_web_search'],
  Plan: ['todo_write', 'todowrite', 'TodoWrite', 'update_plan', 'write_todos'],
  Subagent: ['task', 'spawn_subagent', 'Task', 'Agent', 'agent', 'spawn_agent'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/**
 * ACP `ToolKind` → label, for calls that name no known tool. Checked against the SDK (a new kind
 * fails the build) with `satisfies`, so the published type names no SDK type: hosts do not
 * install the SDK.
 */
export const KIND_LABELS = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Delete',
  move: 'Move',
  search: 'Search',
  execute: 'Run Command',
  think: 'Think',
  fetch: 'Web Fetch',
  switch_mode: 'Switch Mode',
  other: 'Tool',
} as const satisfies Readonly<Record<ToolKind, string>>;

export const FALLBACK_LABEL = 'Tool';

/** The label of a call that runs a command: its text output is read for an exit code (CONTRACTS §11). */
export const COMMAND_LABEL = 'Run Command' satisfies keyof typeof LABEL_NAMES;

/**
 * The labels Loupe itself knows: the name table's, the ACP kinds' and the fallback. Views and
 * anything else that treats a label specially are keyed by this union, so a misspelt label fails
 * the build. (An `x.ai/tool` envelope may carry any other label: it makes a group of its own.)
 */
export type LabelId = keyof typeof LABEL_NAMES | (typeof KIND_LABELS)[keyof typeof KIND_LABELS] | typeof FALLBACK_LABEL;

const LABEL_IDS: ReadonlySet<string> = new Set<string>([...Object.keys(LABEL_NAMES), ...Object.values(KIND_LABELS), FALLBACK_LABEL]);

/** The label as a known LabelId, or undefined for a label only an envelope named. */
export function labelIdOf(label: string): LabelId | undefined {
  return LABEL_IDS.has(label) ? (label as LabelId) : undefined;
}

const LABEL_BY_NAME: ReadonlyMap<string, string> = new Map(
  Object.entries(LABEL_NAMES).flatMap(([label, names]: [string, readonly string[]]) => names.map((name) => [name, label] as const)),
);

export function labelForName(name: string): string | undefined {
  return LABEL_BY_NAME.get(name);
}

/**
 * The label of a rule-2 tool name (CONTRACTS §5): the table's, else, for `mcp__SERVER__TOOL` (how
 * Claude Code names an MCP server's tool; claude-code-acp's own are `mcp__acp__Write`, …), TOOL's.
 */
export function labelForToolName(name: string): string | undefined {
  const byName = LABEL_BY_NAME.get(name);
  if (byName !== undefined || !name.startsWith('mcp__')) return byName;
  const lastSeparator = name.lastIndexOf('__');
  return lastSeparator > 'mcp__'.length ? LABEL_BY_NAME.get(name.slice(lastSeparator + 2)) : undefined;
}

/** The tool name looked up in the table: the first of these that is present (CONTRACTS §5 rule 2). */
export function toolNameOf(call: Pick<ToolCall, 'meta' | 'name' | 'ledger'>): string | undefined {
  // Own properties only: what a prototype holds (a `__proto__` key, a polluted Object.prototype) is not the input's.
  const claudeCode = Object.hasOwn(call.meta, 'claudeCode') ? call.meta.claudeCode : undefined;
  if (typeof claudeCode === 'object' && claudeCode !== null && Object.hasOwn(claudeCode, 'toolName')) {
    const toolName = (claudeCode as { toolName?: unknown }).toolName;
    if (typeof toolName === 'string') return toolName;
  }
  if (call.name !== undefined) return call.name;
  return call.ledger?.name;
}

/**
 * The tool name at the head of a call id (CONTRACTS §5 rule 3): gemini-cli writes `NAME-DIGITS`
 * and `NAME__NAME_DIGITS_N`, so the part before the first `-` or `__`; undefined when there is neither.
 */
export function idHeadOf(id: string): string | undefined {
  const dash = id.indexOf('-');
  const underscores = id.indexOf('__');
  const end = dash < 0 ? underscores : underscores < 0 ? dash : Math.min(dash, underscores);
  return end > 0 ? id.slice(0, end) : undefined;
}

export function labelOf(call: Pick<ToolCall, 'tool' | 'meta' | 'name' | 'ledger' | 'kind' | 'id'>): string {
  if (call.tool) return call.tool.label;
  const name = toolNameOf(call);
  const byName = name === undefined ? undefined : labelForToolName(name);
  if (byName) return byName;
  if (!call.ledger) {
    const head = idHeadOf(call.id);
    const byIdHead = head === undefined ? undefined : labelForName(head);
    if (byIdHead) return byIdHead;
  }
  const byKind = call.kind !== undefined && Object.hasOwn(KIND_LABELS, call.kind) ? KIND_LABELS[call.kind as keyof typeof KIND_LABELS] : undefined;
  return byKind ?? FALLBACK_LABEL;
}

/** Known `x.ai/tool` kinds (tool_meta.schema.json); anything else is displayed as `other`. */
const XAI_KINDS: ReadonlySet<string> = new Set([
  'read', 'edit', 'delete', 'list_dir', 'write', 'move', 'search', 'lsp', 'execute', 'plan', 'web_search', 'web_fetch',
  'background_task_action', 'wait_tasks_action', 'kill_task_action', 'list', 'skill', 'memory_search', 'memory_get',
  'task', 'enter_plan', 'exit_plan', 'ask_user', 'image_gen', 'video_gen', 'image_to_video', 'reference_to_video',
  'deploy_app', 'search_tool', 'use_tool', 'monitor', 'goal_update', 'workflow', 'other',
]);

export function displayXaiKind(kind: string | undefined): string | undefined {
  if (kind === undefined) return undefined;
  return XAI_KINDS.has(kind) ? kind : 'other';
}
