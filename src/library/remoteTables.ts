// A team's tables on a static web host (`?index=URL`), read with HTTP range requests: each
// Parquet file's footer first, then only the column chunks the library reads (all of the sessions
// table, five columns of the calls table), never a whole table. hyparquet's `asyncBufferFromUrl`
// makes the range requests; the fetch it is given here counts the bytes and turns a host that
// ignores `Range` (HTTP 200, the whole body) or does not allow the page (CORS) into one message
// saying what to configure, before the whole body is downloaded.
import { asyncBufferFromUrl, type AsyncBuffer } from 'hyparquet';
import type { FleetSession } from '../analysis/fleet';
import type { TeamPartition } from '../analysis/teamIndex';
import { LastingFailure } from '../routes/listings';
import type { CallColumns } from './callColumns';
import { readTeamTables } from './fleetData';

/** What the page asked the host for: bytes received and requests made, across every table. */
export interface ByteMeter {
  bytes: number;
  requests: number;
}

/** The host does not answer range requests to this page as it must; the message says what to configure. */
export class HostSetupError extends LastingFailure {}

/** What a static host must do for `?index=URL`, said once wherever a request shows it does not. */
export function hostSetupMessage(url: string, problem: string, origin: string): string {
  return (
    `${url} ${problem}. The host must allow this page (CORS: Access-Control-Allow-Origin for ${origin}, Access-Control-Allow-Headers: Range, ` +
    'an OPTIONS preflight answered) and answer range requests (Range: bytes=… answered 206 Partial Content, Accept-Ranges: bytes)'
  );
}

/** `total` from `Content-Range: bytes a-b/total`, when the host lets the page read it (Access-Control-Expose-Headers). */
function rangeTotal(res: Response): number | null {
  const total = /\/(\d+)\s*$/.exec(res.headers.get('Content-Range') ?? '')?.[1];
  return total === undefined ? null : Number(total);
}

/**
 * A fetch for hyparquet's range reads: a 206 is counted and handed on; a 200 to a range that is
 * not the whole file is a host that ignores `Range` (its body is cancelled, not read); a request
 * that fails outright is a host that does not allow the page.
 */
function meteredRangeFetch(url: string, byteLength: number, meter: ByteMeter, origin: string): typeof globalThis.fetch {
  return async (input, init) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(new Headers(init?.headers).get('Range') ?? '');
    const wholeFile = range !== null && Number(range[1]) === 0 && (range[2] === '' || Number(range[2]) >= byteLength - 1);
    let res: Response;
    try {
      // The listing names the files' sizes: a cached range of an older file must not be mixed in.
      res = await fetch(input, { ...init, cache: 'no-store' });
    } catch {
      throw new HostSetupError(hostSetupMessage(url, 'did not answer a range request from this page', origin));
    }
    if (res.status === 200 && !wholeFile) {
      void res.body?.cancel().catch(() => undefined);
      throw new HostSetupError(hostSetupMessage(url, 'answered a range request with the whole file (HTTP 200, not 206)', origin));
    }
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const total = rangeTotal(res);
    if (res.status === 206 && total !== null && total !== byteLength) {
      void res.body?.cancel().catch(() => undefined);
      throw new Error(`${url} is ${total} bytes, not the ${byteLength} index.json lists: it was written again since; reload the page`);
    }
    const body = await res.arrayBuffer();
    meter.bytes += body.byteLength;
    meter.requests++;
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

/**
 * A table on the host as hyparquet reads a file: each slice one range request, unless a range
 * already fetched holds it (the footer's request of a small table fetches all of it). Its size is
 * the listing's (no HEAD request).
 */
async function remoteTable(url: string, byteLength: number, meter: ByteMeter, origin = globalThis.location?.origin ?? 'this page'): Promise<AsyncBuffer> {
  return remembering(await asyncBufferFromUrl({ url, byteLength, fetch: meteredRangeFetch(url, byteLength, meter, origin) }));
}

/** Slices served from the ranges already fetched where one holds them; each answer a copy of its own (a worker may take it). */
function remembering(file: AsyncBuffer): AsyncBuffer {
  const fetched: { start: number; end: number; bytes: Promise<ArrayBuffer> }[] = [];
  return {
    byteLength: file.byteLength,
    async slice(start, end = file.byteLength) {
      const held = fetched.find((range) => range.start <= start && end <= range.end);
      if (held) return (await held.bytes).slice(start - held.start, end - held.start);
      const bytes = Promise.resolve(file.slice(start, end));
      fetched.push({ start, end, bytes });
      bytes.catch(() => void fetched.splice(fetched.findIndex((range) => range.bytes === bytes), 1));
      return (await bytes).slice(0);
    },
  };
}

/**
 * A team's partitions on a static host read as one library (fleetData.ts readTeamTables), each
 * table by range: two partitions' calls at a time, one decoding while the other's ranges arrive.
 */
export function readRemoteTeamTables(baseUrl: string, partitions: readonly TeamPartition[], meter: ByteMeter): { sessions: Promise<FleetSession[]>; calls: Promise<CallColumns> } {
  return readTeamTables(partitions, (partition, file) => {
    const table = partition.tables.find((t) => t.file === file);
    return table ? remoteTable(`${baseUrl}${encodeURIComponent(partition.dir)}/${file}`, table.bytes, meter) : null;
  }, 2);
}
