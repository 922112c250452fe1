// `loupe index` reads files in threads, one per core (this thread and workers: workersFor), each
// file whole in one thread: parsing is the cost, and files are independent. A worker runs this very
// module (see the end of the file; threads.ts). Where a worker cannot start, files are read in this
// thread alone.
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, workerData, type MessagePort, type Worker } from 'node:worker_threads';
import type { FileRows } from '../analysis/fileRows';
import { CALLS_TABLE, type FleetSession } from '../analysis/fleet';
import { fail, ok, type Result } from '../ingest/result';
import { indexFile, indexLoaded, loadFile, WHOLE_READ_BYTES, WholeReadBuffers, type LoadedFile } from './indexFile';
import { batchTransfers, columnBatch, type ColumnBatch } from './indexStore';
import { startThread } from './threads';
import { raiseHeapTrimThreshold } from './heapTrim';

const INDEX_ROLE = 'loupe-index-reader';

/** Files handed to a reader thread before it returns the first (indexFiles says why). */
const FILES_AHEAD = 8;

/** A thread's results waiting to be written before it is handed no more files (indexFiles says why). */
const RESULTS_BEHIND = 16;

interface ToReader {
  id: number;
  path: string;
  subagents: readonly string[];
}

type FromReader = { type: 'ready' } | { type: 'done'; id: number; result: FileBatch };

/** A file's rows as a thread sends them: its calls as columns (ColumnBatch says why). */
export type FileBatch = Result<{ session: FleetSession; calls: ColumnBatch } | null>;

function batchOf(result: FileRows): FileBatch {
  if (!result.ok || result.value === null) return result as FileBatch;
  return ok({ session: result.value.session, calls: columnBatch(CALLS_TABLE, result.value.calls) });
}

export interface PoolOptions {
  /** Threads to read with, the calling thread among them when there are two or more (workersFor); default one per core. 0 reads in the calling thread alone. */
  jobs?: number;
  /** Threads started before the files were known (StartedReaders), used instead of starting `jobs`. */
  started?: StartedReaders;
  /** A file's size as the caller stamped it (with its sub-agents' files): this thread reads only files it knows are small. */
  sizeOf?: (path: string) => number | undefined;
  /** Each file's result as soon as it is read, in the order reads finish. */
  onFile: (path: string, result: FileBatch) => void | Promise<void>;
}

/**
 * Reader threads started before the files to read are known: a first run reads every file, so it
 * starts them before it walks the folders, and the threads load their code meanwhile. Either
 * indexFiles takes them, or `release` stops them.
 */
export class StartedReaders {
  private taken = false;
  private constructor(private readonly readers: Promise<Reader[]>) {}

  static start(jobs: number | undefined): StartedReaders | undefined {
    const count = workersFor(jobs ?? availableParallelism());
    return count > 0 ? new StartedReaders(startReaders(count)) : undefined;
  }

  /** The threads, for `files` files: those beyond what workersFor gives them are stopped. */
  async take(files: number): Promise<Reader[]> {
    this.taken = true;
    const readers = await this.readers;
    const wanted = files === 1 ? 1 : workersFor(Math.min(readers.length + 1, files));
    await Promise.all(readers.slice(wanted).map((reader) => reader.stop()));
    return readers.slice(0, wanted);
  }

  /** Stops the threads if indexFiles did not take them (nothing to read, or an error before). */
  async release(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    await Promise.all((await this.readers).map((reader) => reader.stop()));
  }
}

/**
 * Worker threads for `jobs` readers: this thread is one of them when there are two or more. A
 * worker's start costs ~0.1 s of CPU (Node's own modules, then the reading code) and its rows are
 * copied to this thread; this thread, which writes the tables, is idle most of a run meanwhile.
 * With 2 readers on 2 cores, one worker and this thread index 1,000 Claude Code logs in 0.96 of
 * the time two workers took, with 0.94 of their CPU and 0.8 of their peak memory (six runs each,
 * turn about: 2.89–3.04 s against 3.01–3.20 s).
 */
function workersFor(jobs: number): number {
  return jobs >= 2 ? jobs - 1 : jobs;
}

/** Reads every path, at most `jobs` at a time, handing each result to onFile. */
/** `subagentsOf`: a session's sub-agents' files, read with it (indexFile). */
export async function indexFiles(paths: readonly string[], options: PoolOptions, subagentsOf: ReadonlyMap<string, readonly string[]> = new Map()): Promise<{ threads: number }> {
  const readHere = (path: string): boolean => (subagentsOf.get(path)?.length ?? 0) === 0 && (options.sizeOf?.(path) ?? Infinity) <= WHOLE_READ_BYTES;
  // A few small files (a run after an agent wrote one): read here, sooner than a worker starts
  // (0.15–0.2 s). Unless threads were asked for.
  const few = options.jobs === undefined && paths.every(readHere) && paths.reduce((sum, path) => sum + (options.sizeOf?.(path) ?? 0), 0) <= WHOLE_READ_BYTES;
  const wanted = few ? 0 : Math.min(options.jobs ?? availableParallelism(), paths.length);
  const starting = few ? Promise.resolve([]) : options.started ? options.started.take(paths.length) : wanted > 0 ? startReaders(workersFor(wanted)) : Promise.resolve([]);
  const queue = new FileQueue(paths, readHere);
  let pending = Promise.resolve();
  // Results are handed on one at a time, in order of arrival: onFile may write, and writes must not interleave.
  const hand = (path: string, result: FileBatch): Promise<void> => (pending = pending.then(() => options.onFile(path, result)));
  const readAll = async (reader: FileReader): Promise<void> => {
    // Files given to each thread ahead of its reading: one parsed, the next read meanwhile
    // (runReaderThread), and more waiting their turn there. Another is handed to it as soon as
    // one comes back, not once that one's rows are written: this thread writes a row group now
    // and then, and threads handed files only after it ran dry meanwhile. Rows waiting to be
    // written are bounded all the same: by RESULTS_BEHIND per thread.
    const local = reader instanceof LocalReader;
    const reading: Promise<[string, FileBatch]>[] = [];
    const readNext = (): void => {
      const index = queue.take(local);
      if (index < 0) return;
      const path = paths[index]!;
      reading.push(reader.read(path, subagentsOf.get(path) ?? []).then((result) => [path, result]));
    };
    // This thread's own reader takes two files at a time (one parsed, the next read): the files it does not take go to the workers.
    for (let ahead = 0; ahead < (local ? 2 : FILES_AHEAD); ahead++) readNext();
    const writing: Promise<void>[] = [];
    for (let read = reading.shift(); read; read = reading.shift()) {
      const [path, result] = await read;
      const written = hand(path, result);
      // Awaited below; a write that fails is thrown there, not reported as unhandled meanwhile.
      written.catch(() => undefined);
      writing.push(written);
      if (writing.length > RESULTS_BEHIND) await writing.shift();
      readNext();
    }
    await Promise.all(writing);
    await reader.stop();
  };
  // This thread reads from the start, while the workers start (0.1–0.2 s).
  const local = wanted >= 2 ? readAll(new LocalReader()) : null;
  const workers = await starting;
  if (workers.length === 0) {
    // None could start: this thread reads what it has not, in order.
    await local;
    for (let index = queue.take(false); index >= 0; index = queue.take(false)) {
      const path = paths[index]!;
      await hand(path, batchOf(await indexFile(path, subagentsOf.get(path))));
    }
    await pending;
    return { threads: 0 };
  }
  await Promise.all([local, ...workers.map(readAll)]);
  await pending;
  return { threads: workers.length + (local ? 1 : 0) };
}

async function startReaders(count: number): Promise<Reader[]> {
  // Before the threads compile their reading code: heapTrim.ts says why.
  raiseHeapTrimThreshold();
  const started = await Promise.all(Array.from({ length: count }, () => Reader.start()));
  const readers = started.filter((reader): reader is Reader => reader !== undefined);
  if (readers.length === count) return readers;
  // Where one cannot start none should be trusted to: read in this thread.
  await Promise.all(readers.map((reader) => reader.stop()));
  return [];
}

/**
 * The files to read, each taken once, in order: a worker takes the next not taken; this thread the
 * next it may read (`readHere`: a file read whole, with no sub-agents; one that could take a
 * thread's memory is read in a worker, whose death fails that file alone, not the index).
 */
export class FileQueue {
  private readonly taken: Uint8Array;
  /** The first file not taken. */
  private first = 0;
  /** Where this thread's search goes on from: those before it are taken, or not its to read. */
  private localFrom = 0;

  constructor(
    private readonly paths: readonly string[],
    private readonly readHere: (path: string) => boolean,
  ) {
    this.taken = new Uint8Array(paths.length);
  }

  /** The index of the next file for a worker (`local` false) or this thread; -1 when none is left for it. */
  take(local: boolean): number {
    const { paths, taken } = this;
    for (let index = local ? Math.max(this.first, this.localFrom) : this.first; index < paths.length; index++) {
      if (taken[index]) continue;
      if (local && !this.readHere(paths[index]!)) continue;
      taken[index] = 1;
      if (local) this.localFrom = index + 1;
      while (this.first < paths.length && taken[this.first]) this.first++;
      return index;
    }
    if (local) this.localFrom = paths.length;
    return -1;
  }
}

interface FileReader {
  read(path: string, subagents: readonly string[]): Promise<FileBatch>;
  stop(): Promise<void>;
}

/**
 * This thread as a reader beside the workers (workersFor says why): one file parsed at a time, the
 * next one's bytes read meanwhile, into buffers it uses again, as a worker reads (runReaderThread).
 */
class LocalReader implements FileReader {
  private readonly buffers = new WholeReadBuffers();
  private parsed: Promise<unknown> = Promise.resolve();

  read(path: string, subagents: readonly string[]): Promise<FileBatch> {
    // Its read starts now; its parse waits for the one before.
    const loaded = loadFile(path, subagents, this.buffers);
    const result = this.parsed.then(async (): Promise<FileBatch> => {
      try {
        return batchOf(await indexLoaded(await loaded));
      } catch (error) {
        return fail(String(error));
      }
    });
    this.parsed = result;
    return result;
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}

class Reader implements FileReader {
  private nextId = 0;
  private replacing: Promise<Worker | undefined> | null = null;
  private waiting = new Map<number, { path: string; subagents: readonly string[]; done: (result: FileBatch) => void }>();
  /** Stopped on purpose: a read still waiting then fails, none is handed to a new thread. */
  private stopping = false;

  private constructor(private worker: Worker) {
    this.listen(worker);
  }

  static async start(): Promise<Reader | undefined> {
    const worker = await Reader.spawn();
    return worker ? new Reader(worker) : undefined;
  }

  private static spawn(): Promise<Worker | undefined> {
    return startThread(new URL(import.meta.url), { role: INDEX_ROLE });
  }

  private listen(worker: Worker): void {
    worker.on('message', (message: FromReader) => {
      if (message.type !== 'done') return;
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      waiting?.done(message.result);
    });
    // A thread that dies (out of memory on one file) fails the file it was reading, not the index:
    // the thread reads in the order it was handed files, so that is the first waiting; the others
    // handed to it are read again by its replacement. Once it has exited (an error is followed by
    // the exit), so the replacement is asked for a thread that is gone.
    let error: string | undefined;
    worker.on('error', (thrown) => (error = thrown.message));
    worker.on('exit', (code) => {
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      const why = error ?? `it exited with code ${code}`;
      const [reading, ...handed] = waiting;
      if (reading) reading.done(fail(`reading ${reading.path} stopped the reader: ${why}`));
      for (const { path, subagents, done } of handed) {
        if (this.stopping) done(fail(`reading ${path} stopped the reader: ${why}`));
        else void this.read(path, subagents).then(done);
      }
    });
  }

  async read(path: string, subagents: readonly string[]): Promise<FileBatch> {
    if (this.worker.threadId === -1) {
      // One replacement for the reads waiting on it (up to FILES_AHEAD are in flight).
      this.replacing ??= Reader.spawn().then((replacement) => {
        this.replacing = null;
        if (replacement) {
          this.worker = replacement;
          this.listen(replacement);
        }
        return replacement;
      });
      if (!(await this.replacing)) return batchOf(await indexFile(path, subagents));
    }
    const id = this.nextId++;
    return new Promise<FileBatch>((done) => {
      this.waiting.set(id, { path, subagents, done });
      const message: ToReader = { id, path, subagents };
      this.worker.postMessage(message);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.worker.terminate();
  }
}

function runReaderThread(port: MessagePort): void {
  // One file parsed at a time, and the next one's bytes read meanwhile (loadFile): a thread holds
  // one session however large, and the bytes of one more at most.
  const waiting: ToReader[] = [];
  const buffers = new WholeReadBuffers();
  const load = (): { message: ToReader; loaded: Promise<LoadedFile> } | undefined => {
    const message = waiting.shift();
    return message && { message, loaded: loadFile(message.path, message.subagents, buffers) };
  };
  let running = false;
  const run = async (): Promise<void> => {
    running = true;
    for (let current = load(); current; ) {
      const loaded = await current.loaded;
      const following = load();
      let result: FileBatch;
      try {
        result = batchOf(await indexLoaded(loaded));
      } catch (error) {
        result = fail(String(error));
      }
      const transfer = result.ok && result.value ? batchTransfers(result.value.calls) : [];
      port.postMessage({ type: 'done', id: current.message.id, result } satisfies FromReader, transfer);
      current = following ?? load();
    }
    running = false;
  };
  port.on('message', (message: ToReader) => {
    waiting.push(message);
    if (!running) void run();
  });
  port.postMessage({ type: 'ready' } satisfies FromReader);
}

if (!isMainThread && parentPort && (workerData as { role?: unknown } | null)?.role === INDEX_ROLE) runReaderThread(parentPort);
