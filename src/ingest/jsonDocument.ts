// A pretty-printed top-level JSON object whose records are the elements of one array in it: an
// older Gemini CLI's `session-*.json` (`{sessionId, projectHash, startTime, lastUpdated, messages:
// [...]}`, written with JSON.stringify(…, null, 2)), CONTRACTS §11, or Cline's
// `<id>.messages.json` (`{version, updated_at, agent, sessionId, origin, messages: [...],
// system_prompt}`). The object without that array is one record (its head, read before the
// elements, so the session is open when they come), each element is a record with the line it
// starts on (JsonArraySplitter), and keys written after the array are one more record: for Gemini
// a `$set` of them, as Gemini CLI's own JSONL would say them; for Cline the head again with them
// (`whole`), a record of the same shape as the head.
import { JsonArraySplitter, type ArrayElement } from './jsonArray';
import { utf8Length } from './utf8';

export interface DocumentPart extends ArrayElement {
  /** `head`: the object with the array left empty; `tail`: the keys after the array (DocumentKind); `element`: one of the array's. */
  part: 'head' | 'tail' | 'element';
}

/** Which harness wrote the document: it decides how the keys after the array are said. */
export type DocumentKind = 'gemini' | 'cline';

export class JsonDocumentSplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The last string read at depth 1, and whether a `:` made it the current key. */
  private stringStart = -1;
  private lastString: string | null = null;
  private key: string | null = null;
  private readonly head: string[] = [];
  /** The head as handed out, for a Cline tail (the head again, with the keys after the array). */
  private headText = '';
  private readonly tail: string[] = [];
  private array: JsonArraySplitter | null = null;
  private arrayDone = false;
  private headLine = 0;
  private headOffset = 0;
  private tailLine = 0;
  private tailOffset = 0;
  closed = false;

  constructor(
    private readonly arrayKey: string,
    private readonly onPart: (part: DocumentPart) => void,
    private readonly kind: DocumentKind = 'gemini',
  ) {}

  pushLine(text: string, line: number, offset: number): void {
    let from = 0;
    if (this.array && !this.arrayDone) {
      const rest = this.array.pushLine(text, line, offset);
      if (rest < 0) return;
      this.arrayDone = true;
      this.tailLine = line;
      this.tailOffset = offset + utf8Length(text, rest);
      from = rest;
    }
    if (this.headLine === 0) {
      this.headLine = line;
      this.headOffset = offset;
    }
    let segment = from;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) {
          this.inString = false;
          if (this.depth === 1 && this.stringStart >= 0) this.lastString = text.slice(this.stringStart, i);
        }
        continue;
      }
      if (c === 34) {
        this.inString = true;
        this.stringStart = i + 1;
      } else if (c === 58 && this.depth === 1) this.key = this.lastString;
      else if (c === 44 && this.depth === 1) this.key = null;
      else if (c === 123 || c === 91) {
        if (c === 91 && this.depth === 1 && this.key === this.arrayKey && !this.array) {
          this.head.push(text.slice(segment, i), '[]}');
          this.headText = this.head.join('');
          this.emit('head', this.headText, this.headLine, this.headOffset);
          this.head.length = 0;
          this.array = new JsonArraySplitter((element) => this.onPart({ ...element, part: 'element' }));
          const rest = this.array.pushLine(text.slice(i), line, offset + utf8Length(text, i));
          if (rest < 0) return;
          this.arrayDone = true;
          i += rest - 1;
          segment = i + 1;
          this.tailLine = line;
          this.tailOffset = offset + utf8Length(text, segment);
          continue;
        }
        this.depth++;
      } else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === 0) {
          this.keep(text.slice(segment, i + 1));
          this.closed = true;
          this.finish();
          return;
        }
      }
    }
    this.keep(text.slice(segment));
    // A string cannot hold a raw newline: one open at the end of a line is broken, the next line reads on.
    this.inString = false;
    this.escaped = false;
  }

  /** At the end of input: what was not yet handed out (a document never closed) is. */
  end(): void {
    if (!this.closed) this.finish();
  }

  private keep(text: string): void {
    (this.arrayDone ? this.tail : this.head).push(text, '\n');
  }

  private finish(): void {
    if (this.array === null) {
      // No such array: the whole object is one record.
      this.emit('head', this.head.join('').trimEnd(), this.headLine, this.headOffset);
      return;
    }
    const open = this.array.end();
    if (open) this.onPart({ ...open, part: 'element' });
    // `, "summary": "…" }` → `{"$set": {"summary": "…"}}`; nothing but the closing brace says nothing.
    const rest = this.tail.join('').trim().replace(/^,/, '').replace(/}$/, '').trim();
    if (rest === '') return;
    this.emit('tail', this.kind === 'cline' ? `${this.headText.slice(0, -1)}, ${rest}}` : `{"$set": {${rest}}}`, this.tailLine, this.tailOffset);
  }

  private emit(part: DocumentPart['part'], text: string, line: number, offset: number): void {
    this.onPart({ part, text, line, offset });
  }
}

/**
 * Which pretty-printed document a file's first two non-blank lines open: an older Gemini CLI's
 * `session-*.json` (its first key `sessionId`), Cline's `<id>.messages.json` (`version`); null for
 * anything else.
 */
export function documentKindOf(first: string, second: string): DocumentKind | null {
  if (first.trim() !== '{') return null;
  if (/^\s*"sessionId"\s*:/.test(second)) return 'gemini';
  if (/^\s*"version"\s*:/.test(second)) return 'cline';
  return null;
}
