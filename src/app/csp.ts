// The second, narrower Content-Security-Policy the app adds at start-up (see APP_POLICY in
// vite.config.ts): requests only to this origin and to the ones `?src=`, `?vs=` and `?index=` name. The page's URL is
// fixed for its life (opening another URL loads a new page), so this is known before anything is
// fetched. A policy added later can only narrow what the page may do, never widen it.

/** `connect-src` for a page opened with `src` (null: no URL was given, only local files), and `vs` (the run compared with it). */
export function connectPolicy(src: string | null, base: string, vs: string | null = null, index: string | null = null): string {
  const sources = ["'self'"];
  for (const given of [src, vs, index]) {
    if (given === null) continue;
    try {
      const url = new URL(given, base);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin !== new URL(base).origin && !sources.includes(url.origin)) sources.push(url.origin);
    } catch {
      // Not a URL: nothing to allow; the load reports it.
    }
  }
  return `connect-src ${sources.join(' ')}`;
}

export function narrowConnectSrc(src: string | null, vs: string | null = null, index: string | null = null): void {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = connectPolicy(src, document.baseURI, vs, index);
  document.head.append(meta);
}
