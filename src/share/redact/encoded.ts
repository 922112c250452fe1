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
/** Each base64 character's value (`-_` are base64url's `+/`), -1 for the rest. */
const BASE64_VALUE = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].forEach((char, value) => (BASE64_VALUE[char.charCodeAt(0)] = value));
BASE64_VALUE['-'.charCodeAt(0)] = 62;
BASE64_VALUE['_'.charCodeAt(0)] = 63;
const isBase64Char = (code: number): boolean => code < 128 && BASE64_VALUE[code]! >= 0;
/** Widths base64 is wrapped at: 76 (coreutils `base64`), 64 (PEM, openssl). */
const WRAP_WIDTHS = [76, 64];
/** Characters a URL or form body holds unescaped (a run is these and escapes, with one escape at least). */
const URL_CHAR = /[A-Za-z0-9._~!$'()*+,;:@/?&=%-]/;
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

/**
 * Runs of base64 characters (either alphabet) on one line. A run long enough holds the character
 * MIN_BASE64 - 1 places on from wherever the search stands, so the search looks there first and
 * jumps past it when it is not one: most of a session is short words, read one character in 24.
 */
function* base64Runs(text: string): Generator<DecodedRun> {
  // Invariant: `at` is 0 or just past a character that is not base64, so no run starts before it.
  for (let at = 0; at + MIN_BASE64 <= text.length; ) {
    const probe = at + MIN_BASE64 - 1;
    if (!isBase64Char(text.charCodeAt(probe))) {
      at = probe + 1;
      continue;
    }
    let start = probe;
    while (start > at && isBase64Char(text.charCodeAt(start - 1))) start--;
    let lineEnd = probe + 1;
    while (lineEnd < text.length && isBase64Char(text.charCodeAt(lineEnd))) lineEnd++;
    at = lineEnd + 1;
    if (lineEnd - start < MIN_BASE64) continue;
    const padEnd = lineEnd + 2;
    while (lineEnd < padEnd && text[lineEnd] === '=') lineEnd++;
    const end = wrappedEnd(text, start, lineEnd);
    at = end + 1;
    const decoded = decodedRun(text.slice(start, end));
    // The characters skipped are the word's, not the run's: they stay (no run's first line is shorter than 4).
    if (decoded) yield { start: start + decoded.skip, end, encoding: 'base64', text: decoded.text };
  }
}

/** The run as text, from the first of the 4 alignments whose start decodes to text (a run glued to a word before it: `\e[31m` then the run). */
function decodedRun(run: string): { skip: number; text: string } | null {
  const compact = run.replace(/[\r\n=]/g, '');
  for (let skip = 0; skip < 4; skip++) {
    if (compact.length - skip < MIN_BASE64 || !startsAsText(compact, skip)) continue;
    const text = textShare(decodeBase64(compact.slice(skip)));
    return text ? { skip, text } : null;
  }
  return null;
}

/**
 * Whether the first bytes from `skip` read as text: no control character, and UTF-8 (a character
 * cut by the probe's end is fine). Random bytes, and hex read as base64, fail within a few.
 */
function startsAsText(compact: string, skip: number): boolean {
  const end = Math.min(compact.length, skip + PROBE_CHARS);
  let continuations = 0;
  const textByte = (byte: number): boolean => {
    if (continuations > 0) {
      continuations--;
      return byte >= 0x80 && byte <= 0xbf;
    }
    if (byte < 0x80) return !isControl(byte);
    continuations = byte >= 0xc2 && byte <= 0xdf ? 1 : byte >= 0xe0 && byte <= 0xef ? 2 : byte >= 0xf0 && byte <= 0xf4 ? 3 : -1;
    return continuations > 0;
  };
  for (let at = skip; at + 4 <= end; at += 4) {
    const group = (value(compact, at) << 18) | (value(compact, at + 1) << 12) | (value(compact, at + 2) << 6) | value(compact, at + 3);
    if (!textByte(group >> 16) || !textByte((group >> 8) & 0xff) || !textByte(group & 0xff)) return false;
  }
  return true;
}

const value = (text: string, at: number): number => BASE64_VALUE[text.charCodeAt(at)]!;
const isControl = (byte: number): boolean => (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) || byte === 0x7f;

/** Where a run ends: a line as wide as a wrap width goes on with the run's next lines, up to a shorter one. */
function wrappedEnd(text: string, start: number, lineEnd: number): number {
  const width = WRAP_WIDTHS.find((w) => lineEnd - start === w);
  if (width === undefined) return lineEnd;
  const nextLine = new RegExp(`\\r?\\n([A-Za-z0-9+/]{1,${width}}={0,2})(?![A-Za-z0-9+/=])`, 'y');
  let end = lineEnd;
  for (;;) {
    nextLine.lastIndex = end;
    const line = nextLine.exec(text);
    if (!line) return end;
    end = nextLine.lastIndex;
    if (line[1]!.length !== width) return end;
  }
}

/** Runs of URL characters around each percent escape; each run is read once, however many escapes it holds. */
function* percentRuns(text: string): Generator<DecodedRun> {
  for (let at = text.indexOf('%'); at >= 0; ) {
    if (!ESCAPE.test(text.slice(at, at + 3))) {
      at = text.indexOf('%', at + 1);
      continue;
    }
    let start = at;
    while (start > 0 && URL_CHAR.test(text[start - 1]!)) start--;
    let end = at + 3;
    while (end < text.length && URL_CHAR.test(text[end]!)) end++;
    at = text.indexOf('%', end);
    const run = text.slice(start, end);
    if (run.length < MIN_PERCENT) continue;
    const decoded = decodePercent(run);
    if (decoded) yield { start, end, encoding: 'url-encoded', ...decoded };
  }
}

/** The bytes of base64 text (either alphabet) without its padding; a lone last character, half a byte, is dropped. */
function decodeBase64(body: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let length = 0;
  let bits = 0;
  let held = 0;
  for (let at = 0; at < body.length; at++) {
    bits = (bits << 6) | value(body, at);
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes[length++] = (bits >> held) & 0xff;
    }
  }
  return bytes.subarray(0, length);
}

/**
 * The bytes as text, up to the first byte that is not (a control character other than a tab or a
 * line break, or bytes that are not UTF-8), when that prefix is at least MIN_TEXT_SHARE of them;
 * else null.
 */
function textShare(bytes: Uint8Array): string | null {
  if (!bytes.length) return null;
  const decoded = new TextDecoder('utf-8').decode(bytes);
  // eslint-disable-next-line no-control-regex -- control characters are what marks bytes as not text
  const bad = decoded.search(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/);
  const text = bad < 0 ? decoded : decoded.slice(0, bad);
  return new TextEncoder().encode(text).length >= bytes.length * MIN_TEXT_SHARE ? text : null;
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
