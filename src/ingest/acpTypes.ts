// Shapes of validated ACP data, shared by ingest (which produces them) and model (which folds them).

/** Where a record came from in the input: 1-based line, byte offset of the line, its length in bytes. */
export interface SourceLocation {
  line: number;
  offset: number;
  length: number;
}

/** ACP tool-call status, as merged from the updates (CONTRACTS §7). */
export type CallStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export type Direction = 'agent->client' | 'client->agent';

/** One text/image/resource block of ACP content, kept loosely typed past its `type`. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data?: string; uri?: string }
  | { type: 'audio'; mimeType: string; data?: string }
  | { type: 'resource_link'; uri: string; name?: string; title?: string; mimeType?: string }
  | { type: 'resource'; resource: { uri: string; text?: string; blob?: string; mimeType?: string } }
  | { type: 'unknown'; raw: unknown };

/** ACP `ToolCallContent`. */
export type ToolCallContent =
  | { type: 'content'; content: ContentBlock }
  | { type: 'diff'; path: string; oldText: string | null; newText: string }
  | { type: 'terminal'; terminalId: string }
  | { type: 'unknown'; raw: unknown };

export interface ToolCallLocation {
  path: string;
  line?: number;
}

export interface PlanEntry {
  content: string;
  priority?: string;
  status: string;
}

