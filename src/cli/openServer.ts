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
import { machineOfDir, type TeamPartition } from '../analysis/teamIndex';
import { followDocument, isWholeDocument } from './followDocument';
import { tailFile } from './tail';

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

/** What `library` answers: the folder the rows' paths are relative to, and the files that could not be read. */
export interface LibraryListing {
  folder: string;
  unreadable: { file: string; why: string }[];
  wholeMachine?: boolean;
  team?: { base: string; here: string | null; partitions: TeamPartition[]; present: string[] };
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

export interface RecordingEntry {
  name: string;
  bytes: number;
  mtimeMs: number;
  live: boolean;
  agent?: string;
  title: string | null;
}

export interface RecordingsListing {
  folder: string;
  recordings: RecordingEntry[];
}

/** A session an agent logged itself (CONTRACTS §10), as the page lists it: opened as `sessions/ID/NAME`. */
export interface AgentSessionEntry {
  id: string;
  name: string;
  format: string;
  sessionId: string | null;
  title: string | null;
  project: string | null;
  startedAt: string | null;
  lastWriteAt: string;
  bytes: number;
  live: boolean;
}

export interface AgentSessionsListing {
  folders: string[];
  sessions: AgentSessionEntry[];
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

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const appDir = resolve(options.appDir);
  const capturesDir = resolve(options.capturesDir);
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const token = randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const closing = new AbortController();
  const spool = options.session?.kind === 'stream' ? await spoolStream(options.session.stream) : null;
  const session = options.session?.kind === 'file' ? { path: resolve(options.session.path), follow: options.session.follow } : null;
  // The session is served at `session/NAME`: the viewer names what it shows (header, downloads,
  // exports) after the last segment of its address. In a path `%`, `#`, `?` and `\` would not
  // read back as the same name.
  const sessionName = (session ? basename(session.path) : 'stdin.jsonl').replace(/[%#?\\]/g, '_');
  const compareWith = options.session && options.compareWith !== undefined ? resolve(options.compareWith) : null;
  const compareName = compareWith === null ? '' : basename(compareWith).replace(/[%#?\\]/g, '_');
  const page = !options.session
    ? options.library
      ? '?library'
      : '?recordings'
    : compareWith === null
      ? `?src=session/${encodeURIComponent(sessionName)}`
      : `?src=compare/${encodeURIComponent(compareName)}&vs=session/${encodeURIComponent(sessionName)}`;
  // Without a session or a library, the page lists the recordings and the agents' sessions.
  const listsRecordings = !options.session && (!options.library || options.library.wholeMachine === true);
  const library = options.library
    ? {
        ...options.library, folder: resolve(options.library.folder), files: new Set(options.library.files.map((file) => resolve(file))),
        ...(options.library.team ? { team: { ...options.library.team, base: resolve(options.library.team.base) } } : {}),
      }
    : null;

  /** The one-time address's secret, until it is visited. */
  let launchKey: Buffer | null = null;
  /**
   * The agents' sessions last listed, by id: only a file the listing found (and still the same
   * file) is served, so an id names nothing the user was not shown.
   */
  let agentSessions = new Map<string, { path: string; dev: number; ino: number; live: boolean }>();
  const agentLogDirs = !listsRecordings ? [] : (options.agentLogDirs ?? []).map((dir) => resolve(dir));

  const allowedHosts = new Set<string>();
  const allowedOrigins = new Set<string>();

  const server = createServer({ noDelay: true }, (req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'Internal error');
      else res.destroy(err instanceof Error ? err : undefined);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // The token is in the page's address: never hand it to another site.
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Content-Security-Policy', OPEN_POLICY);
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) return fail(res, 403, 'Forbidden: wrong Host');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) return fail(res, 403, 'Forbidden: wrong Origin');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return fail(res, 405, 'Method not allowed');
    }
    const target = parseTarget(req.url ?? '');
    if (!target) return fail(res, 403, 'Forbidden');
    const [first, ...rest] = target.segments;
    if (first === LAUNCH && rest.length === 1) {
      if (!launchKey || !sameToken(rest[0]!, launchKey)) return fail(res, 410, 'This address was good for one visit and has been used; open the address loupe open printed');
      launchKey = null;
      res.writeHead(303, { Location: `/${token}/${page}` });
      res.end();
      return;
    }
    if (first === undefined || !sameToken(first, tokenBytes)) return fail(res, 403, 'Forbidden: this address needs the token loupe open printed');
    if (rest.length === 0) {
      // The viewer's assets are relative to the page, so the page must end in a slash.
      res.writeHead(308, { Location: `/${token}/${target.search}` });
      res.end();
      return;
    }
    const head = req.method === 'HEAD';
    const route = rest.join('/');
    if (route === '') return sendFile(res, join(appDir, 'index.html'), head);
    // `session/NAME` (NAME only labels it: whatever it says, this is the one session), or `session`.
    if (rest[0] === 'session' && rest.length <= 2) {
      if (spool) return sendSession(req, res, spool.path, { follow: true, writerDone: () => spool.ended }, head);
      if (session) return sendSession(req, res, session.path, await followOf(session.path, session.follow), head);
      return fail(res, 404, 'No session: loupe open was started without a file');
    }
    // `compare/NAME`: the run the session is compared with (--vs), as `session/NAME` names the session.
    if (rest[0] === 'compare' && rest.length <= 2) {
      if (compareWith) return sendSession(req, res, compareWith, { follow: false }, head);
      return fail(res, 404, 'Nothing to compare with: loupe open was started without --vs');
    }
    if (library && rest[0] === 'library') {
      if (rest.length === 1) {
        const listing: LibraryListing = { folder: library.folder, unreadable: [...library.unreadable], ...(library.wholeMachine ? { wholeMachine: true } : {}) };
        if (library.team) {
          const present = [];
          for (const file of library.files) if ((await lstat(file).catch(() => null))?.isFile()) present.push(file);
          listing.team = { ...library.team, partitions: await scanPartitions(library.team.base), present };
        }
        return sendJson(res, listing, head);
      }
      // `library/machine=NAME/TABLE`: a partition's table, in a team's index.
      if (library.team && rest.length === 3 && machineOfDir(rest[1]!) !== null && (rest[2] === 'calls.parquet' || rest[2] === 'sessions.parquet')) {
        const info = await lstat(join(library.team.base, rest[1]!)).catch(() => null);
        const table = await lstat(join(library.team.base, rest[1]!, rest[2])).catch(() => null);
        if (!info?.isDirectory() || !table?.isFile()) return fail(res, 404, 'No such machine in the index');
        return sendFile(res, join(library.team.base, rest[1]!, rest[2]), head);
      }
      if (rest.length === 2 && (rest[1] === 'calls.parquet' || rest[1] === 'sessions.parquet')) return sendFile(res, join(library.indexDir, rest[1]), head);
      // `library/file/PATH…`: a file under the folder, only one the index holds.
      const path = resolve(library.folder, ...rest.slice(2));
      if (rest[1] !== 'file' || !path.startsWith(library.folder === sep ? sep : library.folder + sep) || !library.files.has(path)) return fail(res, 404, 'No such session in the library');
      // As for the agents' sessions: a regular file of this user's, not a link put in its place since.
      const info = await lstat(path).catch(() => null);
      if (!info?.isFile() || (process.getuid && info.uid !== process.getuid())) return fail(res, 404, 'No such session in the library');
      // A capture whose tee still runs is followed until tee exits; a log that only changed lately is read as it is
      // (followed, a finished session would never read as done).
      return sendSession(req, res, path, { ...(await followOf(path, await isCaptureLive(path))), expect: { dev: info.dev, ino: info.ino } }, head);
    }
    // The recordings folder is served only when it is what was opened (loupe open without a session).
    if (listsRecordings && route === 'recordings') return sendJson(res, await listRecordings(capturesDir), head);
    if (listsRecordings && rest[0] === 'recordings' && rest.length === 2) {
      const found = await recording(capturesDir, rest[1]!);
      if (!found) return fail(res, 404, 'No such recording');
      const { path, info } = found;
      // A recording still being written is followed until tee exits.
      return sendSession(req, res, path, { ...(await followOf(path, await isCaptureLive(path))), expect: { dev: info.dev, ino: info.ino } }, head);
    }
    if (rest[0] === 'recordings') return fail(res, 404, 'Not found: loupe open was started on one session');
    if (listsRecordings && route === 'sessions') {
      const listing = await listAgentSessions(agentLogDirs);
      agentSessions = listing.found;
      return sendJson(res, listing.listing, head);
    }
    // `sessions/ID/NAME`: NAME only labels it, as `session/NAME` does.
    if (listsRecordings && rest[0] === 'sessions' && (rest.length === 2 || rest.length === 3)) {
      const listed = agentSessions.get(rest[1]!);
      const info = listed ? await lstat(listed.path).catch(() => null) : null;
      if (!listed || !info?.isFile() || info.dev !== listed.dev || info.ino !== listed.ino) return fail(res, 404, 'No such session (list the sessions again)');
      if (process.getuid && info.uid !== process.getuid()) return fail(res, 404, 'No such session');
      // A log its agent is still writing is followed while the page reads it.
      return sendSession(req, res, listed.path, { follow: listed.live, expect: { dev: info.dev, ino: info.ino } }, head);
    }
    if (rest[0] === 'sessions') return fail(res, 404, 'Not found: loupe open was started on one session');
    const path = resolve(appDir, ...rest);
    if (!path.startsWith(appDir + sep)) return fail(res, 403, 'Forbidden');
    return sendFile(res, path, head);
  }

  /** A capture that tee is writing is followed until tee's marker goes; anything else until the reader leaves. */
  async function followOf(path: string, follow: boolean): Promise<{ follow: boolean; writerDone?: () => Promise<boolean> }> {
    if (!follow || !(await isCaptureLive(path))) return { follow };
    return { follow, writerDone: async () => !(await isCaptureLive(path)) };
  }

  async function sendSession(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    mode: { follow: boolean; writerDone?: () => boolean | Promise<boolean>; expect?: { dev: number; ino: number } },
    head: boolean,
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
    // A followed file has no length yet; chunked, each read goes out as it is made.
    if (!mode.follow) res.setHeader('Content-Length', info.size);
    if (head) {
      res.end();
      return;
    }
    res.flushHeaders();
    const reader = new AbortController();
    const stop = () => reader.abort();
    res.on('close', stop);
    req.on('close', stop);
    closing.signal.addEventListener('abort', stop, { once: true });
    try {
      // A document rewritten whole each turn (Cline's, an older Gemini CLI's) is followed by what each rewrite adds, not by bytes.
      if (mode.follow && (await isWholeDocument(path))) await followDocument(path, res, { ...mode, pollMs, signal: reader.signal });
      else await tailFile(path, res, { ...mode, pollMs, signal: reader.signal, ...(mode.follow ? {} : { endAt: info.size }) });
      res.end();
    } finally {
      closing.signal.removeEventListener('abort', stop);
      res.off('close', stop);
      req.off('close', stop);
    }
  }

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
    allowedHosts.add(host);
    allowedOrigins.add(`http://${host}`);
  }
  const origin = `http://${HOST}:${port}`;

  let closed: Promise<void> | null = null;
  return {
    url: `${origin}/${token}/${page}`,
    oneTimeUrl: () => {
      const key = randomBytes(24).toString('base64url');
      launchKey = Buffer.from(key);
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
    const agent = (live ? await markerAgent(path) : undefined) ?? agentFromName(name);
    const { title } = await readHead(path);
    entries.push({ name, bytes: info.size, mtimeMs: info.mtimeMs, live, ...(agent ? { agent } : {}), title });
  }
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
  return { folder, recordings: entries };
}

/** The agents' own sessions under `folders` (not tee's captures, which the recordings list), newest first. */
async function listAgentSessions(folders: readonly string[]): Promise<{ listing: AgentSessionsListing; found: Map<string, { path: string; dev: number; ino: number; live: boolean }> }> {
  const found = new Map<string, { path: string; dev: number; ino: number; live: boolean }>();
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
    });
  }
  return { listing: { folders: [...folders], sessions }, found };
}

async function markerAgent(path: string): Promise<string | undefined> {
  const marker = await readLiveMarker(path);
  return typeof marker?.agent === 'string' && marker.agent ? marker.agent : undefined;
}

/** tee names captures `<time>_<agent>_<pid>.jsonl` (see captureName). */
function agentFromName(name: string): string | undefined {
  return /^[^_]+_(.+)_\d+\.jsonl$/.exec(name)?.[1];
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
