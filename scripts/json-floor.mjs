// The floor every benchmark is measured against: JSON.parse of each line, nothing else. Self-contained,
// so it runs as it is in Node, in a worker (imported) and in a page (its source, through page.evaluate).

/** Milliseconds JSON.parse takes over `lines` (blank ones skipped; a bad line costs a throw, as in ingest). */
export function timeJsonParse(lines) {
  const start = performance.now();
  for (const line of lines) {
    if (!line) continue;
    try {
      JSON.parse(line);
    } catch {
      // as ingest: a bad line costs a throw
    }
  }
  return performance.now() - start;
}
