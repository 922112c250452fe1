// The index's two tables, asked for as soon as the page knows it is the library: the app calls
// this before the library's code (and its Parquet reader) has loaded, so the fetches overlap it.
// No Parquet here: the app's own bundle imports this file.

export interface LibraryTables {
  sessions: Promise<ArrayBuffer>;
  calls: Promise<ArrayBuffer>;
}

let asked: LibraryTables | null = null;

/** The tables `loupe open DIR` serves, fetched once per page. */
export function libraryTables(): LibraryTables {
  if (!asked) {
    asked = { sessions: fetchTable('library/sessions.parquet'), calls: fetchTable('library/calls.parquet') };
    // Whoever reads the tables reports a failure; until then it is not an unhandled rejection.
    asked.sessions.catch(() => undefined);
    asked.calls.catch(() => undefined);
  }
  return asked;
}

export async function fetchTable(url: string): Promise<ArrayBuffer> {
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.arrayBuffer();
}
