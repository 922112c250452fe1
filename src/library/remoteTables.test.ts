// A team's tables read from a static host by range (`?index=URL`): a small HTTP server that counts
// the bytes it serves per file. The first rows (every partition's sessions) come before a byte of
// any calls table; the calls read only the footer and the library's five columns, not the table;
// a host that ignores `Range` gets the message saying what to configure.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parquetMetadata } from 'hyparquet';
import { afterEach, describe, expect, test } from 'vitest';
import { CALLS_TABLE, SESSIONS_TABLE, type FleetCall, type FleetSession } from '../analysis/fleet';
import type { TeamPartition } from '../analysis/teamIndex';
import { labelStatsOver, LIBRARY_CALL_COLUMNS } from './callColumns';
import { HostSetupError, readRemoteTeamTables, type ByteMeter } from './remoteTables';
import { parquetOf } from './testing/parquetOf';

const LABELS = ['Read', 'Edit', 'Run Command', 'Grep', 'Task'];

interface Machine {
  name: string;
  sessions: FleetSession[];
  calls: FleetCall[];
}

/** A machine's sessions and calls, the calls with the columns the library leaves out filled (ids, times, tokens) as a real index has them. */
function machine(name: string, sessionCount: number, callsPerSession: number, seed: number): Machine {
  let state = seed;
  const next = (n: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  const sessions: FleetSession[] = [];
  const calls: FleetCall[] = [];
  for (let s = 0; s < sessionCount; s++) {
    const file = `/home/${name}/sessions/s-${s}.jsonl`;
    let failed = 0;
    for (let c = 0; c < callsPerSession; c++) {
      const status = next(10) === 0 ? 'failed' : 'done';
      if (status === 'failed') failed++;
      calls.push({
        file, format: 'codex', session: `${name}-session-${s}-${next(1e9)}`, call_id: `call-${s}-${c}-${next(1e9)}`, label: LABELS[next(LABELS.length)] ?? 'Read',
        subject: `src/file-${next(300)}.ts`, status, started_ms: 1_767_225_600_000 + next(1e9), duration_ms: next(60_000), permission: null, exit_code: next(3),
        turn_input_tokens: next(1e6), turn_output_tokens: next(1e5), parent_call_id: next(4) === 0 ? `call-${s}-${next(1e9)}` : null,
      });
    }
    sessions.push({
      file, format: 'codex', session: `${name}-${s}`, project: `/work/${name}`, title: `task ${s}`, started_ms: 1_767_225_600_000, ended_ms: 1_767_225_660_000,
      calls: callsPerSession, failed, input_tokens: 100, output_tokens: 10, cost: null, cost_unit: null, bytes: 1000, bad_lines: 0, modified_ms: 1_767_225_660_000,
    });
  }
  return { name, sessions, calls };
}

/** A team's folder as files: each partition's two tables and the listing's entries for them. */
function teamFiles(machines: readonly Machine[]): { files: Map<string, ArrayBuffer>; partitions: TeamPartition[] } {
  const files = new Map<string, ArrayBuffer>();
  const partitions = machines.map((m): TeamPartition => {
    const dir = `machine=${m.name}`;
    const tables = [
      { file: 'sessions.parquet', bytes: parquetOf(SESSIONS_TABLE, m.sessions, 50_000), rows: m.sessions.length },
      { file: 'calls.parquet', bytes: parquetOf(CALLS_TABLE, m.calls, 10_000), rows: m.calls.length },
    ];
    for (const t of tables) files.set(`/${dir}/${t.file}`, t.bytes);
    return {
      machine: m.name, dir, updated_ms: 0, sessions: m.sessions.length, calls: m.calls.length,
      tables: tables.map((t) => ({ file: t.file, bytes: t.bytes.byteLength, rows: t.rows, updated_ms: 0 })),
    };
  });
  return { files, partitions };
}

interface Host {
  url: string;
  /** Bytes served, per path. */
  served: Map<string, number>;
  /** The ranges asked for, per path (`whole` for a request without one). */
  asked: Map<string, string[]>;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A static host of `files`: with `ranges`, `Range: bytes=a-b` is answered 206; without, every GET is the whole file (HTTP 200), as some hosts do. */
async function host(files: ReadonlyMap<string, ArrayBuffer>, ranges: boolean): Promise<Host> {
  const served = new Map<string, number>();
  const asked = new Map<string, string[]>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = files.get(path);
    if (!file) return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    asked.set(path, [...(asked.get(path) ?? []), range ? `${range[1]}-${range[2]}` : 'whole']);
    const [start, end] = ranges && range ? [Number(range[1]), range[2] ? Math.min(Number(range[2]), file.byteLength - 1) : file.byteLength - 1] : [0, file.byteLength - 1];
    const body = Buffer.from(file, start, end - start + 1);
    res.writeHead(ranges && range ? 206 : 200, {
      'Content-Length': body.byteLength,
      ...(ranges ? { 'Accept-Ranges': 'bytes' } : {}),
      ...(ranges && range ? { 'Content-Range': `bytes ${start}-${end}/${file.byteLength}` } : {}),
    });
    // Counted as written: a client that cancels a body it did not ask for stops the count short of the file.
    res.end(body, () => served.set(path, (served.get(path) ?? 0) + body.byteLength));
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, served, asked };
}

const callsPaths = (partitions: readonly TeamPartition[]) => partitions.map((p) => `/${p.dir}/calls.parquet`);

describe('readRemoteTeamTables: a team on a static host, by range', () => {
  const machines = [machine('alpha', 40, 500, 11), machine('beta', 25, 400, 12), machine('gamma', 10, 300, 13)];
  const { files, partitions } = teamFiles(machines);

  test('the first rows fetch no calls table; the calls fetch their footer and the library\'s columns, not the table', async () => {
    const web = await host(files, true);
    const meter: ByteMeter = { bytes: 0, requests: 0 };
    const tables = readRemoteTeamTables(web.url, partitions, meter);
    const sessions = await tables.sessions;
    // Every session of every machine, each marked with its machine.
    expect(sessions.map((s) => `${s.machine}:${s.file}`).sort()).toEqual(machines.flatMap((m) => m.sessions.map((s) => `${m.name}:${s.file}`)).sort());
    const atFirstRows = new Map(web.served);
    for (const path of callsPaths(partitions)) expect(atFirstRows.get(path) ?? 0).toBe(0);

    const calls = await tables.calls;
    const everyFile = new Uint8Array(calls.files.length).fill(1);
    const perLabel = Object.fromEntries(labelStatsOver(calls, everyFile).labels.map((l) => [l.label, [l.calls, l.failed]]));
    const expected: Record<string, [number, number]> = {};
    for (const call of machines.flatMap((m) => m.calls)) {
      const counts = (expected[call.label] ??= [0, 0]);
      counts[0]++;
      if (call.status === 'failed') counts[1]++;
    }
    expect(perLabel).toEqual(expected);

    for (const path of callsPaths(partitions)) {
      const file = files.get(path)!;
      const metadata = parquetMetadata(file);
      const chunks = metadata.row_groups.flatMap((group) => group.columns.map((chunk) => chunk.meta_data!));
      const library = chunks.filter((meta) => (LIBRARY_CALL_COLUMNS as readonly string[]).includes(meta.path_in_schema[0] ?? ''));
      const libraryBytes = library.reduce((sum, meta) => sum + Number(meta.total_compressed_size), 0);
      const served = web.served.get(path) ?? 0;
      // The footer (its first read takes at most 64 kB) and the library's chunks, with the small gaps hyparquet reads through: not the rest.
      expect(served).toBeGreaterThanOrEqual(libraryBytes);
      expect(served).toBeLessThanOrEqual(libraryBytes + (1 << 16) + library.length * (1 << 13));
      expect(served).toBeLessThan(file.byteLength * 0.75);
      expect(web.asked.get(path)).not.toContain('whole');
    }
    expect(meter.bytes).toBe([...web.served.values()].reduce((a, b) => a + b, 0));
  });

  test('a host that answers a range with the whole file (HTTP 200): the message says what to configure, and the body is not read', async () => {
    const web = await host(files, false);
    const meter: ByteMeter = { bytes: 0, requests: 0 };
    const tables = readRemoteTeamTables(web.url, partitions, meter);
    // A sessions table smaller than its footer's first read is asked for whole: that much a host without ranges serves.
    expect(await tables.sessions).toHaveLength(75);
    const failure = await tables.calls.then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(HostSetupError);
    expect((failure as Error).message).toMatch(/calls\.parquet answered a range request with the whole file \(HTTP 200, not 206\)\. The host must allow this page .*Access-Control-Allow-Headers: Range.* answer range requests \(Range: bytes=… answered 206 Partial Content/);
    // The page took none of a calls table's bytes.
    expect(meter.bytes).toBe(partitions.reduce((sum, p) => sum + (p.tables.find((t) => t.file === 'sessions.parquet')?.bytes ?? 0), 0));
  });

  test('a host that does not answer: the same message', async () => {
    const web = await host(files, true);
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
    const failure = await readRemoteTeamTables(web.url, partitions, { bytes: 0, requests: 0 }).sessions.then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(HostSetupError);
    expect((failure as Error).message).toMatch(/sessions\.parquet did not answer a range request from this page\. The host must allow this page \(CORS: Access-Control-Allow-Origin/);
  });
});
