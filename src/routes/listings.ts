// The listings a `loupe open` server answers and its page reads: one zod schema each. The server
// builds its answers to `satisfies` the types inferred here; the page parses what it is sent with
// the same schemas, so a server of another version (or a proxy's error page) is a clear message.
import { z } from 'zod';
import { teamListingOf, TEAM_LISTING_VERSION, type TeamPartition } from '../analysis/teamIndex';

/** A recording `loupe tee` made (`recordings`). */
export const recordingEntrySchema = z.object({
  name: z.string(),
  bytes: z.number(),
  mtimeMs: z.number(),
  live: z.boolean(),
  /** The agent tee ran, from its marker or the file's name. */
  agent: z.string().optional(),
  /** The first prompt of the session it recorded. */
  title: z.string().nullish(),
});
export type RecordingEntry = z.infer<typeof recordingEntrySchema>;

export const recordingsListingSchema = z.object({ folder: z.string(), recordings: z.array(recordingEntrySchema) });
export type RecordingsListing = z.infer<typeof recordingsListingSchema>;

/** A session an agent logged itself (CONTRACTS §10), opened as `sessions/ID/NAME`. */
export const agentSessionEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  format: z.string(),
  sessionId: z.string().nullish(),
  title: z.string().nullish(),
  project: z.string().nullable(),
  startedAt: z.string().nullish(),
  lastWriteAt: z.string(),
  bytes: z.number(),
  live: z.boolean(),
});
export type AgentSessionEntry = z.infer<typeof agentSessionEntrySchema>;

export const agentSessionsListingSchema = z.object({ folders: z.array(z.string()), sessions: z.array(agentSessionEntrySchema) });
export type AgentSessionsListing = z.infer<typeof agentSessionsListingSchema>;

/** A team's partitions, checked as a team's index.json is (teamListingOf): a partition not of its shape is left out. */
const teamPartitionsSchema = z.array(z.unknown()).transform((partitions, ctx): TeamPartition[] => {
  const listing = teamListingOf({ version: TEAM_LISTING_VERSION, partitions });
  if (listing === null) {
    ctx.addIssue({ code: 'custom', message: 'not a team index’s partitions' });
    return z.NEVER;
  }
  return listing.partitions;
});

/** A team's index as the library shows it (`loupe open BASE`, or `?index=URL`). */
export const teamViewSchema = z.object({
  /** The team's folder, as the server names it (or the listing's address). */
  base: z.string(),
  /** This machine's name: its rows' files may open here. Null where no file opens (a static host). */
  here: z.string().nullable(),
  partitions: teamPartitionsSchema,
  /** Files of this machine's partition that are on this machine now: the rows that open. */
  present: z.array(z.string()),
});
export type TeamView = z.infer<typeof teamViewSchema>;

/** `library`: the folder the rows' paths are relative to, and the files that could not be read. */
export const libraryListingSchema = z.object({
  folder: z.string(),
  unreadable: z.array(z.object({ file: z.string(), why: z.string() })),
  /** Every session on the machine (`loupe open` without a path): the recordings list is there too. */
  wholeMachine: z.literal(true).optional(),
  /** A team's index (`loupe open BASE`, BASE holding `machine=NAME/` partitions): the rows are the union of the partitions'. */
  team: teamViewSchema.optional(),
});
export type LibraryListing = z.infer<typeof libraryListingSchema>;

/**
 * A read that asking again will not change: the server refused it (HTTP 4xx) or answered
 * something not of the listing's shape. Its message says what is wrong; it is not retried.
 */
export class LastingFailure extends Error {}

/**
 * `value` (a response's JSON) read with `schema`, or an Error naming what `what` is and the first
 * place it is not of its shape; never a value of the wrong shape.
 */
export function parseListing<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const read = schema.safeParse(value);
  if (read.success) return read.data;
  const issue = read.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new LastingFailure(`the server's ${what} is not a listing Loupe reads${where}: ${issue?.message ?? 'wrong shape'}`);
}

/** A listing fetched from the page's server: its JSON parsed with `schema`, or an Error saying why not. */
export async function fetchListing<T>(address: string, schema: z.ZodType<T>, what: string): Promise<T> {
  const res = await fetch(address, { cache: 'no-store' });
  if (!res.ok) throw httpFailure(`HTTP ${res.status}`, res.status);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new LastingFailure(`the server's ${what} is not JSON`);
  }
  return parseListing(schema, json, what);
}

/** An HTTP error's failure: lasting for a 4xx (the request is refused as it is), passing otherwise (a server's 5xx may not recur). */
export function httpFailure(message: string, status: number): Error {
  return status >= 400 && status < 500 ? new LastingFailure(message) : new Error(message);
}
