// @vitest-environment jsdom
// The library page's reads from `loupe open DIR` as react-query queries, over a mocked fetch: the
// listing, then the tables it names; a refused listing said once and not asked again; a server's
// passing failure asked again. Rendered under a QueryClient with the app's retry rule.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALLS_TABLE, SESSIONS_TABLE, type FleetCall, type FleetSession } from '../analysis/fleet';
import { retryUnlessLasting } from '../routes/queries';
import { Library } from './Library';
import { parquetOf } from './testing/parquetOf';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = (file: string): FleetSession => ({
  file, format: 'codex', session: file, project: '/work/app', title: `task ${file}`, started_ms: 1_767_225_600_000, ended_ms: 1_767_225_660_000,
  calls: 1, failed: 0, input_tokens: 100, output_tokens: 10, cost: null, cost_unit: null, bytes: 1000, bad_lines: 0, modified_ms: 1_767_225_660_000,
});
const call = (file: string, label: string): FleetCall => ({
  file, format: 'codex', session: file, call_id: `${file}-${label}`, label, subject: null, status: 'done', started_ms: null, duration_ms: null, permission: null,
  exit_code: null, turn_input_tokens: null, turn_output_tokens: null, parent_call_id: null,
});

// The server's tables are fetched once per page (tables.ts), so every test serves the same ones.
const TABLES: Record<string, ArrayBuffer> = {
  'library/sessions.parquet': parquetOf(SESSIONS_TABLE, [session('a.jsonl'), session('b.jsonl'), session('c.jsonl')]),
  'library/calls.parquet': parquetOf(CALLS_TABLE, [call('a.jsonl', 'Read'), call('b.jsonl', 'Edit'), call('c.jsonl', 'Read')]),
};
const LISTING = { folder: '/home/dev/sessions', unreadable: [{ file: 'broken.jsonl', why: 'not JSON at line 1' }] };

/** The server: `library` answered by `listing` (a status, or the listing), the tables as TABLES; every request counted. */
function serve(listing: (asked: number) => number | object) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', vi.fn((url: string) => {
    asked.push(url);
    const table = TABLES[url];
    if (table) return Promise.resolve(new Response(table.slice(0)));
    const answer = url === 'library' ? listing(asked.filter((u) => u === url).length) : 404;
    return Promise.resolve(typeof answer === 'number' ? new Response('no', { status: answer }) : new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }));
  }));
  return asked;
}

/** The library as the app shows it, under a client with the app's retry rule (asked again at once, not after react-query's backoff). */
function showLibrary() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: retryUnlessLasting, retryDelay: 0 } } });
  render(
    <QueryClientProvider client={client}>
      <Library />
    </QueryClientProvider>,
  );
}

describe('the library read from loupe open DIR', () => {
  it('reads the listing, then the sessions and calls it names: the count, the folder, the unreadable file and the labels shown', async () => {
    const asked = serve(() => LISTING);
    showLibrary();
    await waitFor(() => expect(screen.getByTestId('library').querySelector('[data-shown]')?.getAttribute('data-shown')).toBe('3'));
    expect(screen.getByText('/home/dev/sessions')).toBeTruthy();
    expect(screen.getByText('1 file could not be read')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('[data-label="Read"]')?.getAttribute('data-calls')).toBe('2'));
    expect(asked.filter((url) => url === 'library')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says once why a refused listing cannot be read, asks for it once, and reads no table', async () => {
    const asked = serve(() => 404);
    showLibrary();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not read the library (the library is served by loupe open DIR (HTTP 404)).');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(asked).toEqual(['library']);
  });

  it('says what is wrong with a listing not of its shape, without asking again', async () => {
    const asked = serve(() => ({ folder: 7, unreadable: [] }));
    showLibrary();
    expect((await screen.findByRole('alert')).textContent).toMatch(/the server's library is not a listing Loupe reads at folder/);
    expect(asked).toEqual(['library']);
  });

  it('asks again after a server error, and shows the rows once it answers', async () => {
    const asked = serve((n) => (n === 1 ? 503 : LISTING));
    showLibrary();
    await waitFor(() => expect(screen.getByTestId('library').querySelector('[data-shown]')?.getAttribute('data-shown')).toBe('3'));
    expect(asked.filter((url) => url === 'library')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
