// Types for scripts/gen-session.mjs, so TypeScript tests can generate sessions in process.
export type GeneratedFormat = 'acp' | 'grok' | 'ledger';

export const FORMATS: GeneratedFormat[];

export interface GenerateOptions {
  format?: GeneratedFormat;
  /** Tool calls to write (default 200); ignored when `mb` is given. */
  calls?: number;
  /** About this many MiB instead of a number of calls. */
  mb?: number;
  seed?: number;
  /** The chance of a line that is not JSON before each record. */
  badRate?: number;
}

/** One call as docs/CONTRACTS.md says Loupe must show it, worked out by the generator. */
export interface ExpectedCall {
  id: string;
  label: string;
  subject: string | null;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  updates: number;
}

export interface AnswerKey {
  format: GeneratedFormat;
  seed: number;
  /** In the order they were generated (a turn's calls interleave on the wire). */
  calls: ExpectedCall[];
  lines: number;
  badLines: number;
}

export function generateSession(options: GenerateOptions, write: (line: string) => void): AnswerKey;
export function generate(options: GenerateOptions): { text: string; key: AnswerKey };
