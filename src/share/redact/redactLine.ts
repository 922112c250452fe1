// Redacting one line of a session in place. A JSON string holding a secret is decoded, redacted
// and written back as a JSON string at the same place in the line; everything else in the line
// stays byte for byte, so key order (which decides subjects, CONTRACTS §6) and every other value
// read the same. A secret written with escapes (`\u0041KIA…`, `\/`) is found in the decoded text.
import { applySpans, findSecrets, type Redacted, type SecretSpan } from './detect';
import { SECRET_KEY_NAMES } from './rules';

const STRING_TOKEN = /"(?:[^"\\]|\\.)*"/g;
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
  for (const match of line.matchAll(STRING_TOKEN)) {
    if (match.index > at) parts.push(gap(line, at, match.index));
    const token = match[0];
    const end = match.index + token.length;
    let text: string;
    let decoded = true;
    try {
      text = JSON.parse(token) as string;
    } catch {
      text = token.slice(1, -1);
      decoded = false;
    }
    const isKey = KEY_FOLLOWS.test(line.slice(end, end + 32));
    parts.push({ start: match.index, end, text, decoded, quoted: !decoded, secretKey: isKey && SECRET_KEY_NAMES.test(text) });
    at = end;
  }
  if (at < line.length) parts.push(gap(line, at, line.length));
  return parts;
}

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
 * ruleset costs far more than the text it reads), so pass many at once.
 */
export async function redactLines(lines: readonly string[]): Promise<Redacted[]> {
  const partsByLine = lines.map(partsOf);
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

  const found = await findSecrets(combined);
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

  return lines.map((line, lineIndex) => rewrite(line, partsByLine[lineIndex]!, spansByPart[lineIndex]!));
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
    kinds.push(...spans.map((span) => span.kind));
    const redacted = applySpans(part.text, spans);
    out += line.slice(at, part.start) + (part.decoded ? JSON.stringify(redacted) : part.quoted ? `"${redacted}"` : redacted);
    at = part.end;
  });
  return kinds.length ? { text: out + line.slice(at), kinds } : { text: line, kinds };
}

/** Spans of one part from several sources, sorted and joined (the longer one's kind wins). */
function joinSpans(spans: SecretSpan[]): SecretSpan[] {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const joined: SecretSpan[] = [];
  for (const span of spans) {
    const last = joined[joined.length - 1];
    if (last && span.start < last.end) {
      if (span.end - span.start > last.end - last.start) last.kind = span.kind;
      last.end = Math.max(last.end, span.end);
    } else joined.push({ ...span });
  }
  return joined;
}

