// Redacting one line of a session in place. A JSON string holding a secret is decoded, redacted
// and written back as a JSON string at the same place in the line; everything else in the line
// stays byte for byte, so key order (which decides subjects, CONTRACTS §6) and every other value
// read the same. A secret written with escapes (`\u0041KIA…`, `\/`) is found in the decoded text.
import { applySpans, findSecrets, type Redacted, type SecretSpan } from './detect';
import { SECRET_KEY_NAMES } from './rules';
import { streamTextOf } from './streams';

const KEY_FOLLOWS = /^\s*:/;
const VALUE_FOLLOWS_KEY = /^\s*:\s*$/;
const WHOLLY_ALREADY_REDACTED = /^secret:redacted\/[A-Za-z0-9._:/-]*$/;
/** Joins the texts of a line's parts for detection; a newline, so no pattern runs one into the next as a word. */
const SEPARATOR = '\n';

interface Part {
  /** Where the part is in the line. */
  start: number;
  end: number;
  /** What detection reads: a JSON string decoded, other text as it is. */
  text: string;
  /** A JSON string that decoded: written back with JSON.stringify. */
  decoded: boolean;
  /** A string that is not valid JSON: its quotes are kept around the redacted text. */
  quoted: boolean;
  /** A JSON key whose value is a secret whatever it looks like (`"password": …`). */
  secretKey: boolean;
}

function partsOf(line: string): Part[] {
  const parts: Part[] = [];
  let at = 0;
  for (const [start, end] of stringTokens(line)) {
    if (start > at) parts.push(gap(line, at, start));
    const token = line.slice(start, end);
    let text: string;
    let decoded = true;
    try {
      text = JSON.parse(token) as string;
    } catch {
      text = token.slice(1, -1);
      decoded = false;
    }
    const isKey = KEY_FOLLOWS.test(line.slice(end, end + 32));
    parts.push({ start, end, text, decoded, quoted: !decoded, secretKey: isKey && SECRET_KEY_NAMES.test(text) });
    at = end;
  }
  if (at < line.length) parts.push(gap(line, at, line.length));
  return parts;
}

/**
 * Where each JSON string literal (`"…"`, escapes and all) is in the line, read once left to right: a
 * regular expression would read the rest of the line again from every quote of an unclosed string.
 */
function* stringTokens(line: string): Generator<[number, number]> {
  for (let start = line.indexOf('"'); start >= 0; ) {
    let at = start + 1;
    for (; at < line.length; at++) {
      const char = line.charCodeAt(at);
      if (char === BACKSLASH) at++;
      else if (char === QUOTE) break;
    }
    // Unclosed: no later quote closes a string either (each was read as escaped or closing).
    if (at >= line.length) return;
    yield [start, at + 1];
    start = line.indexOf('"', at + 1);
  }
}

const BACKSLASH = 92;
const QUOTE = 34;

function gap(line: string, start: number, end: number): Part {
  return { start, end, text: line.slice(start, end), decoded: false, quoted: false, secretKey: false };
}

/** Joins lines for detection: no rule's pattern crosses it (none matches U+0000). */
const LINE_SEPARATOR = '\n\u0000\n';

/** `line` with every secret replaced by its kind, and the kinds replaced. */
export async function redactLine(line: string): Promise<Redacted> {
  return (await redactLines([line]))[0]!;
}

/**
 * Each line with every secret replaced by its kind. Lines are read as one text (a call to the
 * ruleset costs far more than the text it reads), so pass many at once. The lines are a whole: a
 * message streamed over several of them is read joined (see createLineRedactor).
 */
export async function redactLines(lines: readonly string[]): Promise<Redacted[]> {
  const redactor = createLineRedactor();
  return [...(await redactor.push(lines)), ...(await redactor.end())];
}

/**
 * Redaction of a session read line by line, in order. A line that continues a streamed text
 * (streams.ts) is held until its run ends, so a secret cut across its records is read whole; the
 * first record holding part of it shows its kind, the others lose their part. A run is read in
 * pieces of at most MAX_RUN_CHARS (a secret across a piece's end is not joined).
 */
export interface LineRedactor {
  /** The lines, appended; returns the results of the oldest lines not yet returned that are settled, in order. */
  push(lines: readonly string[]): Promise<Redacted[]>;
  /** The results of every line not yet returned. */
  end(): Promise<Redacted[]>;
}

const MAX_RUN_CHARS = 1 << 20;

interface Entry {
  line: string;
  parts: Part[];
  stream: { key: string; separator: string; part: number } | null;
}

function entryOf(line: string): Entry {
  const parts = partsOf(line);
  const stream = streamTextOf(line);
  if (stream) {
    // The string holding the text: the last one equal to it (the content's `text` comes after its keys).
    for (let index = parts.length - 1; index >= 0; index--) {
      const part = parts[index]!;
      if (part.decoded && part.text === stream.text) return { line, parts, stream: { key: stream.key, separator: stream.separator, part: index } };
    }
  }
  return { line, parts, stream: null };
}

export function createLineRedactor(): LineRedactor {
  let held: Entry[] = [];
  let runChars = 0;
  return {
    async push(lines) {
      for (const line of lines) {
        const entry = entryOf(line);
        const last = held[held.length - 1];
        const continues = entry.stream !== null && last?.stream?.key === entry.stream.key;
        runChars = continues ? runChars + entry.parts[entry.stream!.part]!.text.length : entry.stream ? entry.parts[entry.stream.part]!.text.length : 0;
        held.push(entry);
      }
      // Everything before the run still open is settled; the open run too once it is long enough.
      let cut = held.length;
      const last = held[cut - 1];
      if (last?.stream && runChars < MAX_RUN_CHARS) {
        while (cut > 0 && held[cut - 1]!.stream?.key === last.stream.key) cut--;
      } else runChars = 0;
      if (cut === 0) return [];
      const settled = held.slice(0, cut);
      held = held.slice(cut);
      return redactEntries(settled);
    },
    async end() {
      const settled = held;
      held = [];
      runChars = 0;
      return settled.length ? redactEntries(settled) : [];
    },
  };
}

async function redactEntries(entries: readonly Entry[]): Promise<Redacted[]> {
  const partsByLine = entries.map((entry) => entry.parts);
  const spansByPart = partsByLine.map((parts) => parts.map((): SecretSpan[] => []));
  const starts = partsByLine.map((parts) => parts.map(() => 0));

  let combined = '';
  partsByLine.forEach((parts, lineIndex) => {
    secretFieldSpans(parts, spansByPart[lineIndex]!);
    // Every text of the line, read as one, so a rule can see a key beside its value.
    parts.forEach((part, index) => {
      if (index > 0) combined += SEPARATOR;
      starts[lineIndex]![index] = combined.length;
      combined += part.text;
    });
    combined += LINE_SEPARATOR;
  });
  // Then each run of streamed records, its texts joined as a person reads them.
  const runsStart = combined.length;
  const runs: { lineIndex: number; start: number }[][] = [];
  for (let lineIndex = 0; lineIndex < entries.length; ) {
    const stream = entries[lineIndex]!.stream;
    let end = lineIndex + 1;
    while (stream && end < entries.length && entries[end]!.stream?.key === stream.key) end++;
    if (stream && end - lineIndex > 1) {
      const run: { lineIndex: number; start: number }[] = [];
      for (let member = lineIndex; member < end; member++) {
        if (member > lineIndex) combined += stream.separator;
        run.push({ lineIndex: member, start: combined.length });
        combined += entries[member]!.parts[entries[member]!.stream!.part]!.text;
      }
      combined += LINE_SEPARATOR;
      runs.push(run);
    }
    lineIndex = end;
  }

  const found = await findSecrets(combined);
  const inRuns = found.filter((span) => span.start >= runsStart);
  // Each span is given to the parts it covers; lines are walked once, in step with the sorted spans.
  let first = 0;
  partsByLine.forEach((parts, lineIndex) => {
    const lineStarts = starts[lineIndex]!;
    const lineStart = lineStarts[0] ?? 0;
    const lastPart = parts.length - 1;
    const lineEnd = lastPart < 0 ? lineStart : lineStarts[lastPart]! + parts[lastPart]!.text.length;
    while (first < found.length && found[first]!.end <= lineStart) first++;
    for (let spanIndex = first; spanIndex < found.length && found[spanIndex]!.start < lineEnd; spanIndex++) {
      const span = found[spanIndex]!;
      parts.forEach((part, index) => {
        const from = Math.max(span.start - lineStarts[index]!, 0);
        const to = Math.min(span.end - lineStarts[index]!, part.text.length);
        if (to <= from) return;
        // Text between strings is the line's structure (JSON punctuation): it is redacted only
        // where a secret lies wholly in it (a text log's prefix), never by a span from a string.
        const structural = !part.decoded && !part.quoted;
        if (structural && (from !== span.start - lineStarts[index]! || to !== span.end - lineStarts[index]!)) return;
        spansByPart[lineIndex]![index]!.push({ start: from, end: to, kind: span.kind });
      });
    }
  });
  // A span in a joined run: its kind where it starts, its other parts removed.
  let runIndex = 0;
  for (const span of inRuns) {
    while (runIndex < runs.length) {
      const run = runs[runIndex]!;
      const last = run[run.length - 1]!;
      const lastEntry = entries[last.lineIndex]!;
      if (span.start < last.start + lastEntry.parts[lastEntry.stream!.part]!.text.length + 1) break;
      runIndex++;
    }
    const run = runs[runIndex];
    if (!run) break;
    let kind = span.kind;
    for (const member of run) {
      const entry = entries[member.lineIndex]!;
      const partIndex = entry.stream!.part;
      const from = Math.max(span.start - member.start, 0);
      const to = Math.min(span.end - member.start, entry.parts[partIndex]!.text.length);
      if (to <= from) continue;
      spansByPart[member.lineIndex]![partIndex]!.push({ start: from, end: to, kind });
      kind = '';
    }
  }

  return entries.map((entry, lineIndex) => rewrite(entry.line, partsByLine[lineIndex]!, spansByPart[lineIndex]!));
}

/** A value under a secret key, whatever it looks like. */
function secretFieldSpans(parts: readonly Part[], spansByPart: SecretSpan[][]): void {
  for (let index = 0; index + 2 < parts.length; index++) {
    const key = parts[index]!;
    const between = parts[index + 1]!;
    const value = parts[index + 2]!;
    if (!key.secretKey || !(value.decoded || value.quoted) || between.decoded || between.quoted || !VALUE_FOLLOWS_KEY.test(between.text)) continue;
    if (value.text.length === 0 || WHOLLY_ALREADY_REDACTED.test(value.text) || /^‹[a-z0-9-]+›$/.test(value.text)) continue;
    spansByPart[index + 2]!.push({ start: 0, end: value.text.length, kind: 'secret-field' });
  }
}

function rewrite(line: string, parts: readonly Part[], spansByPart: SecretSpan[][]): Redacted {
  const kinds: string[] = [];
  let out = '';
  let at = 0;
  parts.forEach((part, index) => {
    const spans = joinSpans(spansByPart[index]!);
    if (!spans.length) return;
    // A span with no kind is the rest of a secret whose kind a record before this one shows.
    for (const span of spans) if (span.kind) kinds.push(span.kind);
    const redacted = applySpans(part.text, spans);
    out += line.slice(at, part.start) + (part.decoded ? JSON.stringify(redacted) : part.quoted ? `"${redacted}"` : redacted);
    at = part.end;
  });
  return at > 0 ? { text: out + line.slice(at), kinds } : { text: line, kinds };
}

/** Spans of one part from several sources, sorted and joined (the longer one's kind wins). */
function joinSpans(spans: SecretSpan[]): SecretSpan[] {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const joined: SecretSpan[] = [];
  for (const span of spans) {
    const last = joined[joined.length - 1];
    if (last && span.start < last.end) {
      if (!last.kind || (span.kind && span.end - span.start > last.end - last.start)) last.kind = span.kind;
      last.end = Math.max(last.end, span.end);
    } else joined.push({ ...span });
  }
  return joined;
}

