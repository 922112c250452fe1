// Secrets written encoded: base64 (a .dockerconfigjson, an `auth` blob, `… | base64` output) and
// percent-encoding (a URL query, a form body). A run long enough to hold a secret is decoded and
// kept only when its bytes are text; the kept texts are read by the same rules together, in one
// call per text (a call to the ruleset costs far more than the text it reads), and a secret found
// in one marks its run. A base64 run is replaced whole, since its characters do not line up with
// the secret's; in a percent-encoded run only the secret's characters (escapes and all) are.
import type { SecretSpan } from './detect';

type Finder = (text: string) => Promise<SecretSpan[]>;

interface DecodedRun {
  /** Where the run is in the text searched. */
  start: number;
  end: number;
  encoding: 'base64' | 'url-encoded';
  text: string;
  /** For percent-encoding: where each UTF-16 unit of `text` starts in the run, and the run's length last. */
  offsets?: number[];
}

/** 24 base64 characters are 18 bytes: no rule finds a secret, with what names it, in fewer. */
const MIN_BASE64 = 24;
/**
 * A base64 run: wrapped at 76 (coreutils `base64`) or 64 (PEM, openssl) columns, or on one line,
 * in either alphabet (`-_` is base64url).
 */
const BASE64_RUN = new RegExp(
  [
    '(?:[A-Za-z0-9+/]{76}\\r?\\n)+[A-Za-z0-9+/]*={0,2}',
    '(?:[A-Za-z0-9+/]{64}\\r?\\n)+[A-Za-z0-9+/]*={0,2}',
    `[A-Za-z0-9+/_-]{${MIN_BASE64},}={0,2}`,
  ].join('|'),
  'g',
);
/** Characters a URL or form body holds unescaped, and escapes; a run needs at least one escape. */
const PERCENT_RUN = /(?:[A-Za-z0-9._~!$'()*+,;:@/?&=-]|%[0-9A-Fa-f]{2})+/g;
const MIN_PERCENT = 16;
const ESCAPE = /%[0-9A-Fa-f]{2}/;
/** Decoded bytes checked for text before the whole run is decoded: most runs that are not text fail here. */
const PROBE_CHARS = 64;
/** Share of a run's decoded bytes that must be text (the rest: a word glued to the run's end). */
const MIN_TEXT_SHARE = 0.9;
/** Joins the decoded texts for reading; no rule's pattern crosses it (none matches U+0000). */
const SEPARATOR = '\n\u0000\n';

export async function encodedSpans(text: string, find: Finder): Promise<SecretSpan[]> {
  const runs = [...base64Runs(text), ...percentRuns(text)];
  if (!runs.length) return [];
  const starts: number[] = [];
  let joined = '';
  for (const run of runs) {
    starts.push(joined.length);
    joined += run.text + SEPARATOR;
  }
  const spans: SecretSpan[] = [];
  for (const found of await find(joined)) {
    const index = lastAtOrBefore(starts, found.start);
    const run = runs[index]!;
    const from = found.start - starts[index]!;
    const to = Math.min(found.end - starts[index]!, run.text.length);
    if (to <= from) continue;
    const kind = found.kind.startsWith(`${run.encoding}-`) ? found.kind : `${run.encoding}-${found.kind}`;
    if (run.offsets) spans.push({ start: run.start + run.offsets[from]!, end: run.start + run.offsets[to]!, kind });
    else spans.push({ start: run.start, end: run.end, kind });
  }
  return spans;
}

function* base64Runs(text: string): Generator<DecodedRun> {
  BASE64_RUN.lastIndex = 0;
  for (const match of text.matchAll(BASE64_RUN)) {
    const run = match[0];
    const compact = run.replace(/\r?\n/g, '').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    // A run glued to a word before it (`\e[31m` then the run) is read from each of the 4 alignments.
    for (let skip = 0; skip < 4; skip++) {
      const body = compact.slice(skip);
      if (body.length < MIN_BASE64 || !textShare(decodeBase64(body.slice(0, PROBE_CHARS)), 1)) continue;
      const decoded = textShare(decodeBase64(body), MIN_TEXT_SHARE);
      // The characters skipped are the word's, not the run's: they stay (no run's first line is shorter than 4).
      if (decoded) yield { start: match.index + skip, end: match.index + run.length, encoding: 'base64', text: decoded };
      break;
    }
  }
}

function* percentRuns(text: string): Generator<DecodedRun> {
  if (!text.includes('%')) return;
  PERCENT_RUN.lastIndex = 0;
  for (const match of text.matchAll(PERCENT_RUN)) {
    const run = match[0];
    if (run.length < MIN_PERCENT || !ESCAPE.test(run)) continue;
    const decoded = decodePercent(run);
    if (decoded) yield { start: match.index, end: match.index + run.length, encoding: 'url-encoded', ...decoded };
  }
}

/** The bytes of base64 text without its padding (a lone last character, half a byte, is dropped). */
function decodeBase64(body: string): Uint8Array {
  const rest = body.length % 4;
  const whole = rest === 1 ? body.slice(0, -1) : body + '='.repeat((4 - rest) % 4);
  try {
    const binary = atob(whole);
    const bytes = new Uint8Array(binary.length);
    for (let at = 0; at < binary.length; at++) bytes[at] = binary.charCodeAt(at);
    return bytes;
  } catch {
    return new Uint8Array();
  }
}

/**
 * The bytes as text, up to the first byte that is not (a control character other than a tab or a
 * line break, or bytes that are not UTF-8), when that prefix is at least `share` of them; else null.
 */
function textShare(bytes: Uint8Array, share: number): string | null {
  if (!bytes.length) return null;
  const decoded = new TextDecoder('utf-8').decode(bytes);
  // eslint-disable-next-line no-control-regex -- control characters are what marks bytes as not text
  const bad = decoded.search(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/);
  const text = bad < 0 ? decoded : decoded.slice(0, bad);
  // A multi-byte character cut by the probe's end is not a sign of binary.
  const cutAtEnd = bad >= 0 && bad === decoded.length - 1 && share === 1;
  return cutAtEnd || new TextEncoder().encode(text).length >= bytes.length * share ? text : null;
}

/** A percent-encoded run decoded, with where each decoded unit came from; null when it is not UTF-8 text. */
function decodePercent(run: string): { text: string; offsets: number[] } | null {
  const bytes: number[] = [];
  const sources: number[] = [];
  for (let at = 0; at < run.length; ) {
    sources.push(at);
    if (run[at] === '%' && ESCAPE.test(run.slice(at, at + 3))) {
      bytes.push(parseInt(run.slice(at + 1, at + 3), 16));
      at += 3;
    } else {
      bytes.push(run.charCodeAt(at));
      at += 1;
    }
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what marks bytes as not text
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return null;
  const offsets: number[] = [];
  for (let byte = 0; byte < bytes.length; ) {
    const lead = bytes[byte]!;
    const length = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    offsets.push(sources[byte]!);
    // A character outside the BMP is two UTF-16 units: both start where its first byte did.
    if (length === 4) offsets.push(sources[byte]!);
    byte += length;
  }
  offsets.push(run.length);
  return { text, offsets };
}

/** The index of the last start at or before `at` (starts ascending, the first one 0). */
function lastAtOrBefore(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}
