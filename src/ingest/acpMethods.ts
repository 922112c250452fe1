// What counts as known (CONTRACTS §2). Methods: the ACP schema's method table (v1, unstable) plus
// Grok's vendor method. Session-update tags: those of `@agentclientprotocol/sdk` 2.4.0's
// `schema/v1/schema.unstable.json` plus Grok Build's vendor tags. Anything else is shown raw as "unknown", never dropped.

export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  // agentMethods
  'initialize', 'authenticate', 'providers/list', 'providers/set', 'providers/disable', 'session/new',
  'session/load', 'session/set_mode', 'session/set_config_option', 'session/prompt', 'session/cancel',
  'mcp/message', 'session/list', 'session/delete', 'session/fork', 'session/resume', 'session/close',
  'logout', 'nes/start', 'nes/suggest', 'nes/accept', 'nes/reject', 'nes/close', 'document/didOpen',
  'document/didChange', 'document/didClose', 'document/didSave', 'document/didFocus',
  // clientMethods
  'session/request_permission', 'session/update', 'fs/write_text_file', 'fs/read_text_file',
  'terminal/create', 'terminal/output', 'terminal/release', 'terminal/wait_for_exit', 'terminal/kill',
  'mcp/connect', 'mcp/disconnect', 'elicitation/create', 'elicitation/complete',
  // protocolMethods
  '$/cancel_request',
  // vendor
  '_x.ai/session/update',
]);

export const SESSION_UPDATE_METHODS: ReadonlySet<string> = new Set(['session/update', '_x.ai/session/update']);

const SESSION_UPDATE_TAGS = [
  'user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update',
  'plan', 'plan_update', 'plan_removed', 'available_commands_update', 'current_mode_update',
  'config_option_update', 'session_info_update', 'usage_update', 'notice', 'compaction_update',
  'compaction_summary_chunk', 'subagent_update', 'session_message', 'session_message_chunk',
  // Grok Build
  'turn_completed', 'hook_execution', 'background_tasks', 'subagent_finished',
] as const;

export type KnownSessionUpdate = (typeof SESSION_UPDATE_TAGS)[number];
export const KNOWN_SESSION_UPDATES: ReadonlySet<string> = new Set(SESSION_UPDATE_TAGS);
