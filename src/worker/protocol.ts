// The small typed message protocol between a viewer and its parser (in a Worker or in-thread).
import type { Result } from '../ingest/result';
import type { SecretFinding, SessionDelta } from '../model/delta';
import type { ToolCall } from '../model';

export type { SecretFinding };

/**
 * What a viewer can be given to read. Everything here survives structured clone (streams are
 * transferred). `redact`: every line's secrets are replaced by their kind in the parser, before
 * the line is parsed, so no secret reaches the page; what was replaced comes back as findings.
 */
export type LoadSource = (
  | { kind: 'blob'; blob: Blob; name?: string }
  | { kind: 'url'; url: string }
  | { kind: 'stream'; stream: ReadableStream<Uint8Array> }
  | { kind: 'text'; text: string }
  | { kind: 'records'; records: unknown[] }
) & { redact?: boolean };

// The delta's parts and types are the model's (model/delta.ts: the builder writes the delta); re-exported for the worker's users.
export {
  APPENDED_PARTS, DELTA_PARTS, PATCH_PARTS, type AppendedPart, type CallPatch, type DeltaEntry, type DeltaLists, type DeltaPart, type SessionDelta,
} from '../model/delta';

export type LoaderEvent =
  | { type: 'delta'; delta: SessionDelta }
  | { type: 'done' }
  | { type: 'cancelled' }
  | { type: 'error'; message: string };

export type ToWorker =
  | { type: 'load'; id: number; source: LoadSource }
  | { type: 'cancel'; id: number }
  | { type: 'hydrate'; id: number; reqId: number; key: string }
  /** Search what a light read left in the file: answered with the keys of the calls that hold `text`. */
  | { type: 'search'; id: number; reqId: number; text: string };

export type FromWorker =
  | (LoaderEvent & { id: number })
  | { type: 'hydrated'; id: number; reqId: number; result: Result<ToolCall> }
  | { type: 'searched'; id: number; reqId: number; keys: string[] };
