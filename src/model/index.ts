// The model's public surface: React-free, DOM-free. Also published as `agent-loupe/model`.
export {
  SessionBuilder, type SessionChanges, type BuilderOptions, type CallChange, type GrownMessage, type DeltaSources, type FindingsToSend,
} from './builder';
export {
  DELTA_PARTS, APPENDED_PARTS, PATCH_PARTS, partsOf, type SessionDelta, type DeltaPart, type DeltaEntry, type DeltaLists, type AppendedPart,
  type PartKind, type PartsOf, type CallPatch, type SecretFinding,
} from './delta';
export { ingest, chunksOf, streamChunks, streamChunksReusing, type ByteSource, type IngestOptions } from './readSession';
export { readClaudeCodeForRows, decodedLines, type LineSplitter } from './claudeCodeRead';
export { displayStatus, exitedWithoutCompletion, hasEnded } from './status';
export { hydrateCall, blobReader, type ReadRecord } from './hydrate';
export { labelOf, LABEL_NAMES, KIND_LABELS, displayXaiKind } from './labels';
export { subjectOf, subjectOfCall, SUBJECT_KEYS, LEDGER_SUBJECT_KEYS } from './subject';
export { summarize, statusNote, type Summary, type SummaryCall } from './summary';
export { callSearchText } from './search';
export type { Session, IngestProgress } from './session';
export type * from './types';
export { isToolCall } from './types';
// What Loupe knows of each harness: how a person names a format, which files are sub-agents'.
export { formatName, isSessionFile, isSubagentFileName, parentSessionFileOf, HARNESSES, type Harness } from '../ingest/harnesses';
export { promptTitle } from '../ingest/harnesses/title';
