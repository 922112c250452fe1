// One shape for a reading that can fail: a value, or why there is none. Readers return it instead
// of throwing, of zod's `{ success, data }`, or of a value-or-message union.
import type { z } from 'zod';

export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<E = string>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}

/** `schema.safeParse(value)` as a Result: the error is zod's first issue, with where it was. */
export function readWith<S extends z.ZodType>(schema: S, value: unknown): Result<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success ? ok(parsed.data) : fail(describeIssue(parsed.error));
}

/** The first issue of a failed parse, with where it was, as one line a person can read. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length ? issue.path.join('.') : 'value';
  return `${where}: ${issue.message}`;
}
