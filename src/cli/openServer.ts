// The local server behind `loupe open`: the built viewer, one session (or the recordings folder),
// nothing else on disk. Bound to 127.0.0.1; every request must carry the token and come from a
// page of this server (Host and Origin), so another site in the browser cannot read a session
// even by rebinding a DNS name to 127.0.0.1.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type Stats } from 'node:fs';
import { lstat, mkdtemp, open, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LIVE_SUFFIX, isCaptureLive, readLiveMarker } from './captures';
import { databaseSnapshot } from './files';
import { findSessions, readHead } from './sessions';
import { scanPartitions } from './teamIndex';
import { agentInCaptureName } from '../ingest/captureName';
import { subagentLayoutOf } from '../ingest/harnesses';
import { codexThreadsSpawnedBy, subagentFolderFilesOf } from './subagentFiles';
import { followDocument, isWholeDocument } from './followDocument';
import { tailFile } from './tail';
import { tailSession } from './tailSession';
import type { AgentSessionEntry, AgentSessionsListing, LibraryListing, RecordingEntry, RecordingsListing } from '../routes/listings';
import { comparePath, pageSearch, sessionPath, type PageRoute } from '../routes/page';
import { serverRouteOf, type ServerRoute } from '../routes/server';

export type SessionInput =
  /** A file on disk; `follow` keeps the response open as it grows. */
  | { kind: 'file'; path: string; follow: boolean }
  /** A stream read to its end (stdin): kept in a private temp file so a reload gets every byte again. */
  | { kind: 'stream'; stream: Readable };

export interface ServerOptions {
  /** The built viewer (`dist/app`). */
  appDir: string;
  /** What `/TOKEN/session` serves; without one the page lists the recordings in `capturesDir`. */
  session?: SessionInput;
  capturesDir: string;
  /**
   * Where agents keep their own logs (Claude Code's projects, Codex's sessions): without a
   * session, the page lists the sessions found there beside the recordings.
   */
  agentLogDirs?: readonly string[];
  /**
   * Another run of the session's task, compared with it (`loupe open B --vs A`): served at
   * `compare/NAME`, read whole (not followed); the page shows it as run A beside the session.
   */
  compareWith?: string;
  /** 0 picks a free port. */
  port?: number;
  /** How often a followed file is checked when the file watcher is silent. */
  pollMs?: number;
  /** A folder opened as a library (`loupe open DIR`): its index, and only the files it holds. */
  library?: LibraryOptions;
}

export interface LibraryOptions {
  folder: string;
  /** Where `calls.parquet` and `sessions.parquet` are. */
  indexDir: string;
  /** The session files the index holds: the only files under the folder that are served. */
  files: readonly string[];
  unreadable: readonly { file: string; why: string }[];
  /**
   * The library of every session on this machine (`loupe open` without a path): the recordings
   * and agents' sessions lists stay served beside it.
   */
  wholeMachine?: boolean;
  /**
   * A team's index (`loupe open BASE`): its partitions are served as `library/machine=NAME/…`;
   * `files` are this machine's (`here`) that are on it.
   */
  team?: { base: string; here: string | null };
}

export interface RunningServer {
  /** The page to open: the session (`?src=session/NAME`, NAME the file's) or the recordings list (`?recordings`). */
  url: string;
  /**
   * An address for the browser that holds no token: a command line is readable by every local
   * user (ps), so the browser is started with this one. Its first visit is sent on to `url`; after
   * that it is spent. Each call makes a new one and spends the one before.
   */
  oneTimeUrl: () => string;
  origin: string;
  token: string;
  port: number;
  close: () => Promise<void>;
}

const HOST = '127.0.0.1';
/** `/open/KEY`: the one-time address (oneTimeUrl). */
const LAUNCH = 'open';
const DEFAULT_POLL_MS = 200;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.map': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.ndjson': 'application/x-ndjson',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.parquet': 'application/vnd.apache.parquet',
};

function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Sessions are never sent as HTML (the viewer refuses that), whatever the file is called. */
function sessionContentType(path: string): string {
  return extname(path).toLowerCase() === '.json' ? 'application/json' : 'application/x-ndjson';
}

/**
 * The viewer's own files only, no inline script; WebAssembly for hashing (hash-wasm); its parser
 * and diff workers from this server; requests only to this server, which serves only the session
 * the user opened (and the recordings list).
 */
export const OPEN_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What the server was started on, its paths resolved: what each route may be given. */
interface Served {
  appDir: string;
  capturesDir: string;
  pollMs: number;
  /** Aborted as the server closes: every followed read stops. */
  closing: AbortSignal;
  /** stdin, kept in a private temp file. */
  spool: Spool | null;
  session: { path: string; follow: boolean } | null;
  compareWith: string | null;
  library: ServedLibrary | null;
  /** Without a session or a library (or with the whole machine's), the page lists the recordings and the agents' sessions. */
  listsRecordings: boolean;
  agentLogDirs: string[];
  /**
   * The agents' sessions last listed, by id: only a file the listing found (and still the same
   * file) is served, so an id names nothing the user was not shown.
   */
  agentSessions: Map<string, ListedSession>;
}

type ServedLibrary = Omit<LibraryOptions, 'files'> & { files: Set<string> };

interface ListedSession {
  path: string;
  dev: number;
  ino: number;
  live: boolean;
}

/** Who may ask: the Host and Origin of this server, the token, and the one-time address's secret until it is visited. */
interface Gate {
  token: string;
  tokenBytes: Buffer;
  launchKey: Buffer | null;
  allowedHosts: Set<string>;
  allowedOrigins: Set<string>;
  /** The page the one-time address sends the browser on to. */
  page: string;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const closing = new AbortController();
  const spool = options.session?.kind === 'stream' ? await spoolStream(options.session.stream) : null;
  const served = servedOf(options, spool, closing.signal);
  const token = randomBytes(24).toString('base64url');
  const page = pageSearch(pageRouteOf(options, served));
  const gate: Gate = { token, tokenBytes: Buffer.from(token), launchKey: null, allowedHosts: new Set(), allowedOrigins: new Set(), page };

  const server = createServer({ noDelay: true }, (req, res) => {
    void handle(served, gate, req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'Internal error');
      else res.destroy(err instanceof Error ? err : undefined);
    });
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  }).catch(async (err: unknown) => {
    if (spool) await spool.remove();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    gate.allowedHosts.add(host);
    gate.allowedOrigins.add(`http://${host}`);
  }
  const origin = `http://${HOST}:${port}`;

  let closed: Promise<void> | null = null;
  return {
    url: `${origin}/${token}/${page}`,
    oneTimeUrl: () => {
      const key = randomBytes(24).toString('base64url');
      gate.launchKey = Buffer.from(key);
      return `${origin}/${LAUNCH}/${key}`;
    },
    origin,
    token,
    port,
    close: () =>
      (closed ??= (async () => {
        closing.abort();
        const done = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
        server.closeAllConnections();
        await done;
        if (spool) await spool.remove();
      })()),
  };
}

function servedOf(options: ServerOptions, spool: Spool | null, closing: AbortSignal): Served {
  const listsRecordings = !options.session && (!options.library || options.library.wholeMachine === true);
  const { library } = options;
  return {
    appDir: resolve(options.appDir),
    capturesDir: resolve(options.capturesDir),
    pollMs: options.pollMs ?? DEFAULT_POLL_MS,
    closing,
    spool,
    session: options.session?.kind === 'file' ? { path: resolve(options.session.path), follow: options.session.follow } : null,
    compareWith: options.session && options.compareWith !== undefined ? resolve(options.compareWith) : null,
    library: library
      ? {
          ...library, folder: resolve(library.folder), files: new Set(library.files.map((file) => resolve(file))),
          ...(library.team ? { team: { ...library.team, base: resolve(library.team.base) } } : {}),
        }
      : null,
    listsRecordings,
    agentLogDirs: !listsRecordings ? [] : (options.agentLogDirs ?? []).map((dir) => resolve(dir)),
    agentSessions: new Map(),
  };
}

/**
 * The page the server opens on: the session at `session/NAME` (the viewer names what it shows
 * after its address's last segment), compared as run B with `compare/NAME` as run A; without one
 * the library or the recordings.
 */
function pageRouteOf(options: ServerOptions, served: Served): PageRoute {
  if (!options.session) return { page: options.library ? 'library' : 'recordings' };
  const session = sessionPath(served.session ? basename(served.session.path) : 'stdin.jsonl');
  return served.compareWith === null ? { page: 'session', src: session, vs: null } : { page: 'session', src: comparePath(basename(served.compareWith)), vs: session };
}

async function handle(served: Served, gate: Gate, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The token is in the page's address: never hand it to another site.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Content-Security-Policy', OPEN_POLICY);
  if (!gate.allowedHosts.has((req.headers.host ?? '').toLowerCase())) return fail(res, 403, 'Forbidden: wrong Host');
  const origin = req.headers.origin;
  if (origin !== undefined && !gate.allowedOrigins.has(origin.toLowerCase())) return fail(res, 403, 'Forbidden: wrong Origin');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return fail(res, 405, 'Method not allowed');
  }
  const target = parseTarget(req.url ?? '');
  if (!target) return fail(res, 403, 'Forbidden');
  const [first, ...rest] = target.segments;
  if (first === LAUNCH && rest.length === 1) {
    if (!gate.launchKey || !sameToken(rest[0]!, gate.launchKey)) return fail(res, 410, 'This address was good for one visit and has been used; open the address loupe open printed');
    gate.launchKey = null;
    res.writeHead(303, { Location: `/${gate.token}/${gate.page}` });
    res.end();
    return;
  }
  if (first === undefined || !sameToken(first, gate.tokenBytes)) return fail(res, 403, 'Forbidden: this address needs the token loupe open printed');
  if (rest.length === 0) {
    // The viewer's assets are relative to the page, so the page must end in a slash.
    res.writeHead(308, { Location: `/${gate.token}/${target.search}` });
    res.end();
    return;
  }
  return answer(served, rest, { req, res, head: req.method === 'HEAD' });
}

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** A HEAD request: the headers only. */
  head: boolean;
}

const ONE_SESSION = 'Not found: loupe open was started on one session';

/** What the path after the token is answered with, given what the server was started on. */
async function answer(served: Served, segments: readonly string[], exchange: Exchange): Promise<void> {
  const { res, head } = exchange;
  const route = serverRouteOf(segments);
  const { spool, session, compareWith, library, listsRecordings } = served;
  switch (route.kind) {
    case 'page':
      return sendFile(res, join(served.appDir, 'index.html'), head);
    case 'session':
      if (spool) return sendSession(served, exchange, spool.path, { follow: true, writerDone: () => spool.ended });
      if (session) return sendSession(served, exchange, session.path, await followOf(session.path, session.follow));
      return fail(res, 404, 'No session: loupe open was started without a file');
    case 'compare':
      if (compareWith) return sendSession(served, exchange, compareWith, { follow: false });
      return fail(res, 404, 'Nothing to compare with: loupe open was started without --vs');
    case 'libraryListing':
    case 'libraryTable':
    case 'teamTable':
    case 'libraryFile':
    case 'notInLibrary':
      // Without a library, `library/…` is no address of the server's: looked for among the viewer's files.
      return library ? answerLibrary(served, library, route, exchange) : sendAsset(served, segments, exchange);
    case 'recordingsListing':
      if (!listsRecordings) return fail(res, 404, ONE_SESSION);
      return sendJson(res, await listRecordings(served.capturesDir), head);
    case 'recording': {
      if (!listsRecordings) return fail(res, 404, ONE_SESSION);
      const found = await recording(served.capturesDir, route.name);
      if (!found) return fail(res, 404, 'No such recording');
      const { path, info } = found;
      // A recording still being written is followed until tee exits.
      return sendSession(served, exchange, path, { ...(await followOf(path, await isCaptureLive(path))), expect: { dev: info.dev, ino: info.ino } });
    }
    case 'agentSessionsListing': {
      if (!listsRecordings) return fail(res, 404, ONE_SESSION);
      const listing = await listAgentSessions(served.agentLogDirs);
      served.agentSessions = listing.found;
      return sendJson(res, listing.listing, head);
    }
    case 'agentSession':
      return listsRecordings ? sendAgentSession(served, route.id, exchange) : fail(res, 404, ONE_SESSION);
    case 'notListed':
      return fail(res, 404, ONE_SESSION);
    case 'asset':
      return sendAsset(served, route.path, exchange);
  }
}

type LibraryRoute = Extract<ServerRoute, { kind: 'libraryListing' | 'libraryTable' | 'teamTable' | 'libraryFile' | 'notInLibrary' }>;

async function answerLibrary(served: Served, library: ServedLibrary, route: LibraryRoute, exchange: Exchange): Promise<void> {
  const { res, head } = exchange;
  switch (route.kind) {
    case 'libraryListing':
      return sendJson(res, await libraryListingOf(library), head);
    case 'libraryTable':
      return sendFile(res, join(library.indexDir, route.table), head);
    case 'teamTable': {
      // A partition's table, in a team's index.
      if (!library.team) return fail(res, 404, 'No such session in the library');
      const info = await lstat(join(library.team.base, route.dir)).catch(() => null);
      const table = await lstat(join(library.team.base, route.dir, route.table)).catch(() => null);
      if (!info?.isDirectory() || !table?.isFile()) return fail(res, 404, 'No such machine in the index');
      return sendFile(res, join(library.team.base, route.dir, route.table), head);
    }
    case 'libraryFile': {
      // A file under the folder, only one the index holds.
      const path = resolve(library.folder, ...route.path);
      if (!path.startsWith(library.folder === sep ? sep : library.folder + sep) || !library.files.has(path)) return fail(res, 404, 'No such session in the library');
      // As for the agents' sessions: a regular file of this user's, not a link put in its place since.
      const info = await lstat(path).catch(() => null);
      if (!info?.isFile() || (process.getuid && info.uid !== process.getuid())) return fail(res, 404, 'No such session in the library');
      // A capture whose tee still runs is followed until tee exits; a log that only changed lately is read as it is
      // (followed, a finished session would never read as done).
      return sendSession(served, exchange, path, { ...(await followOf(path, await isCaptureLive(path))), expect: { dev: info.dev, ino: info.ino } });
    }
    case 'notInLibrary':
      return fail(res, 404, 'No such session in the library');
  }
}

async function libraryListingOf(library: ServedLibrary): Promise<LibraryListing> {
  const listing = { folder: library.folder, unreadable: [...library.unreadable], ...(library.wholeMachine ? { wholeMachine: true as const } : {}) } satisfies LibraryListing;
  if (!library.team) return listing;
  const present = [];
  for (const file of library.files) if ((await lstat(file).catch(() => null))?.isFile()) present.push(file);
  return { ...listing, team: { ...library.team, partitions: await scanPartitions(library.team.base), present } } satisfies LibraryListing;
}

/** `sessions/ID/NAME`: NAME only labels it, as `session/NAME` does. */
async function sendAgentSession(served: Served, id: string, exchange: Exchange): Promise<void> {
  const { res } = exchange;
  const listed = served.agentSessions.get(id);
  const info = listed ? await lstat(listed.path).catch(() => null) : null;
  if (!listed || !info?.isFile() || info.dev !== listed.dev || info.ino !== listed.ino) return fail(res, 404, 'No such session (list the sessions again)');
  if (process.getuid && info.uid !== process.getuid()) return fail(res, 404, 'No such session');
  // A log its agent is still writing is followed while the page reads it.
  return sendSession(served, exchange, listed.path, { follow: listed.live, expect: { dev: info.dev, ino: info.ino } });
}

/** A file of the viewer's build. */
function sendAsset(served: Served, segments: readonly string[], { res, head }: Exchange): Promise<void> {
  const path = resolve(served.appDir, ...segments);
  if (!path.startsWith(served.appDir + sep)) {
    fail(res, 403, 'Forbidden');
    return Promise.resolve();
  }
  return sendFile(res, path, head);
}

/** A capture that tee is writing is followed until tee's marker goes; anything else until the reader leaves. */
async function followOf(path: string, follow: boolean): Promise<{ follow: boolean; writerDone?: () => Promise<boolean> }> {
  if (!follow || !(await isCaptureLive(path))) return { follow };
  return { follow, writerDone: async () => !(await isCaptureLive(path)) };
}

async function sendSession(
  served: Served,
  { req, res, head }: Exchange,
  path: string,
  mode: { follow: boolean; writerDone?: () => boolean | Promise<boolean>; expect?: { dev: number; ino: number } },
): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return fail(res, 404, 'The session file is gone');
  res.statusCode = 200;
  res.setHeader('Content-Type', sessionContentType(path));
  // A database (OpenCode's) is sent whole, its -wal applied: the page gets no -wal of its own, and
  // a database is not followed (it is rewritten in place, not appended to).
  const database = await databaseSnapshot(path).catch(() => null);
  if (database !== null) {
    res.setHeader('Content-Length', database.byteLength);
    res.end(head ? undefined : database);
    return;
  }
  // A session's sub-agents' files go out with it (CONTRACTS §11); followed, those that appear later too.
  const layout = subagentLayoutOf(path);
  const inFolder = layout === null ? [] : await subagentFolderFilesOf(path);
  // Not followed, a Codex rollout goes with the rollouts of the threads it spawned (subagentFilesOf).
  const beside = mode.follow || inFolder.length > 0 ? [] : await codexThreadsSpawnedBy(path);
  const withSubagents = mode.follow ? layout !== null : inFolder.length > 0 || beside.length > 0;
  // A followed file (or one sent with its sub-agents' files) has no length yet; chunked, each read goes out as it is made.
  if (!mode.follow && !withSubagents) res.setHeader('Content-Length', info.size);
  if (head) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = new AbortController();
  const stop = () => reader.abort();
  res.on('close', stop);
  req.on('close', stop);
  served.closing.addEventListener('abort', stop, { once: true });
  try {
    if (withSubagents) await tailSession(path, layout, res, { ...mode, pollMs: served.pollMs, signal: reader.signal }, beside);
    // A document rewritten whole each turn (Cline's, an older Gemini CLI's) is followed by what each rewrite adds, not by bytes.
    else if (mode.follow && (await isWholeDocument(path))) await followDocument(path, res, { ...mode, pollMs: served.pollMs, signal: reader.signal });
    else await tailFile(path, res, { ...mode, pollMs: served.pollMs, signal: reader.signal, ...(mode.follow ? {} : { endAt: info.size }) });
    res.end();
  } finally {
    served.closing.removeEventListener('abort', stop);
    res.off('close', stop);
    req.off('close', stop);
  }
}

interface Target {
  segments: string[];
  search: string;
}

/**
 * The request path as decoded segments, or null for anything that could climb out of a folder:
 * dot segments, encoded slashes, NUL, or a path that is not origin-form; an encoded backslash
 * too where it separates folders (Windows). Elsewhere `\` is a character a file name may hold.
 */
const SEPARATORS = process.platform === 'win32' ? /[/\\\0]/ : /[/\0]/;

export function parseTarget(url: string): Target | null {
  if (!url.startsWith('/')) return null;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const search = q < 0 ? '' : url.slice(q);
  const segments: string[] = [];
  for (const raw of path.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '.' || segment === '..' || SEPARATORS.test(segment)) return null;
    segments.push(segment);
  }
  return { segments, search };
}

function sameToken(candidate: string, token: Buffer): boolean {
  const bytes = Buffer.from(candidate);
  // timingSafeEqual needs equal lengths; comparing the token with itself keeps the time the same.
  const equalLength = bytes.byteLength === token.byteLength;
  return timingSafeEqual(equalLength ? bytes : token, token) && equalLength;
}

function fail(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

async function sendFile(res: ServerResponse, path: string, head: boolean): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return fail(res, 404, 'Not found');
  res.writeHead(200, { 'Content-Type': contentTypeOf(path), 'Content-Length': info.size });
  if (head) {
    res.end();
    return;
  }
  await pipeline(createReadStream(path), res);
}

function sendJson(res: ServerResponse, value: unknown, head: boolean): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.byteLength });
  res.end(head ? undefined : body);
}

/**
 * A recording's name is a plain file name inside the folder: no markers, nothing hidden, and only
 * a file tee could have made there: a regular file of this user's with no other name. A symbolic
 * or hard link (someone's planted `captures/x.jsonl` naming `~/.ssh/id_ed25519`) is not served.
 */
async function recording(folder: string, name: string): Promise<{ path: string; info: Stats } | null> {
  if (name.startsWith('.') || name.endsWith(LIVE_SUFFIX)) return null;
  const path = join(folder, name);
  if (basename(path) !== name) return null;
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile() || info.nlink !== 1) return null;
  if (process.getuid && info.uid !== process.getuid()) return null;
  return { path, info };
}

export async function listRecordings(folder: string): Promise<RecordingsListing> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const entries: RecordingEntry[] = [];
  for (const name of names) {
    const found = await recording(folder, name);
    if (!found) continue;
    const { path, info } = found;
    const live = await isCaptureLive(path);
    const agent = (live ? await markerAgent(path) : undefined) ?? agentInCaptureName(name);
    const { title } = await readHead(path);
    entries.push({ name, bytes: info.size, mtimeMs: info.mtimeMs, live, ...(agent ? { agent } : {}), title } satisfies RecordingEntry);
  }
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  return { folder, recordings: entries } satisfies RecordingsListing;
}

/** The agents' own sessions under `folders` (not tee's captures, which the recordings list), newest first. */
async function listAgentSessions(folders: readonly string[]): Promise<{ listing: AgentSessionsListing; found: Map<string, ListedSession> }> {
  const found = new Map<string, ListedSession>();
  const sessions: AgentSessionEntry[] = [];
  if (folders.length === 0) return { listing: { folders: [], sessions }, found };
  for (const session of await findSessions(folders)) {
    if (session.format === 'acp-capture' || session.format === 'unknown') continue;
    const info = await lstat(session.path).catch(() => null);
    if (!info?.isFile()) continue;
    if (process.getuid && info.uid !== process.getuid()) continue;
    const id = createHash('sha256').update(session.path).digest('base64url').slice(0, 16);
    found.set(id, { path: session.path, dev: info.dev, ino: info.ino, live: session.live });
    sessions.push({
      id, name: basename(session.path), format: session.format, sessionId: session.sessionId, title: session.title, project: session.project,
      startedAt: session.startedAt, lastWriteAt: session.lastWriteAt, bytes: session.size, live: session.live,
    } satisfies AgentSessionEntry);
  }
  return { listing: { folders: [...folders], sessions } satisfies AgentSessionsListing, found };
}

async function markerAgent(path: string): Promise<string | undefined> {
  const marker = await readLiveMarker(path);
  return typeof marker?.agent === 'string' && marker.agent ? marker.agent : undefined;
}

interface Spool {
  path: string;
  readonly ended: boolean;
  remove: () => Promise<void>;
}

async function spoolStream(stream: Readable): Promise<Spool> {
  const dir = await mkdtemp(join(tmpdir(), 'loupe-open-'));
  const path = join(dir, 'stdin.jsonl');
  // Created before the first request can ask for it; readable by this user only.
  await (await open(path, 'wx', 0o600)).close();
  const state = { ended: false };
  const writing = pipeline(stream, createWriteStream(path, { flags: 'a' }))
    .catch(() => undefined)
    .finally(() => {
      state.ended = true;
    });
  return {
    path,
    get ended() {
      return state.ended;
    },
    remove: async () => {
      stream.destroy();
      await writing;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
