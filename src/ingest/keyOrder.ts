// Source-byte key order of one object inside a JSON text (CONTRACTS §6). JSON.parse enumerates
// integer-like keys first ("2" before "10"), so `{"10":"a","2":"b"}` would give "b" where the
// ledger writer and every other reader give "a". Only objects with an integer-like key can differ,
// so the scan runs only for those (see `hasIntegerLikeKey`), walking the text to the object at
// `path` without building anything else.

export type JsonPath = readonly (string | number)[];

/** True when enumeration order may differ from source order. Integer-like keys enumerate first. */
export function hasIntegerLikeKey(value: object): boolean {
  for (const key in value) return isArrayIndex(key);
  return false;
}

function isArrayIndex(key: string): boolean {
  if (key.length === 0 || key.length > 10) return false;
  if (key === '0') return true;
  const code = key.charCodeAt(0);
  if (code < 49 || code > 57) return false;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return Number(key) < 4294967295;
}

/** Keys of the object at `path` in `text`, in source order; undefined when the path is not an object. */
export function sourceKeyOrder(text: string, path: JsonPath): string[] | undefined {
  try {
    const scanner = new Scanner(text);
    scanner.skipWhitespace();
    for (const step of path) {
      if (!scanner.descend(step)) return undefined;
    }
    return scanner.objectKeys();
  } catch {
    return undefined;
  }
}

class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  skipWhitespace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return;
      this.pos++;
    }
  }

  /** Moves to the value at `step` of the current container; JSON.parse keeps the last duplicate key, so do we. */
  descend(step: string | number): boolean {
    const open = this.text[this.pos];
    if (typeof step === 'number') {
      if (open !== '[') return false;
      let index = 0;
      let found = -1;
      this.members(']', () => {
        if (index === step) found = this.pos;
        index++;
        this.skipValue();
      });
      if (found < 0) return false;
      this.pos = found;
      return true;
    }
    if (open !== '{') return false;
    let found = -1;
    this.members('}', () => {
      const key = this.readKey(false);
      if (key === step) found = this.pos;
      this.skipValue();
    });
    if (found < 0) return false;
    this.pos = found;
    return true;
  }

  objectKeys(): string[] | undefined {
    if (this.text[this.pos] !== '{') return undefined;
    const keys: string[] = [];
    const seen = new Set<string>();
    this.members('}', () => {
      const key = this.readKey(true);
      if (!seen.has(key)) {
        seen.add(key);
        keys.push(key);
      }
      this.skipValue();
    });
    return keys;
  }

  /** Iterates the members of the container at pos; `each` is called positioned at a member. */
  private members(close: string, each: () => void): void {
    this.pos++;
    this.skipWhitespace();
    if (this.text[this.pos] === close) {
      this.pos++;
      return;
    }
    for (;;) {
      each();
      this.skipWhitespace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === close) return;
      if (c !== ',') throw new Error('malformed JSON');
      this.skipWhitespace();
    }
  }

  /**
   * Reads `"key"` and the colon after it, leaving pos at the value. A key only compared (`kept`
   * false) is the text between its quotes unless it has an escape; a key kept in the model is
   * decoded by JSON.parse, which copies it (a slice would hold on to the whole chunk's text).
   */
  private readKey(kept: boolean): string {
    const start = this.pos;
    this.skipString();
    let key: string;
    if (kept) key = JSON.parse(this.text.slice(start, this.pos)) as string;
    else {
      key = this.text.slice(start + 1, this.pos - 1);
      if (key.includes('\\')) key = JSON.parse(this.text.slice(start, this.pos)) as string;
    }
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) !== 58 /* : */) throw new Error('malformed JSON');
    this.pos++;
    this.skipWhitespace();
    return key;
  }

  /** Moves past the string at pos, jumping from quote to quote. */
  private skipString(): void {
    const t = this.text;
    if (t.charCodeAt(this.pos) !== 34) throw new Error('malformed JSON');
    let quote = t.indexOf('"', this.pos + 1);
    for (;;) {
      if (quote < 0) throw new Error('unterminated string');
      // The quote closes the string unless an odd run of backslashes escapes it.
      let slashes = 0;
      while (t.charCodeAt(quote - 1 - slashes) === 92) slashes++;
      if (slashes % 2 === 0) break;
      quote = t.indexOf('"', quote + 1);
    }
    this.pos = quote + 1;
  }

  private skipValue(): void {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    if (c === 34) {
      this.skipString();
      return;
    }
    if (c === 123 || c === 91) {
      let depth = 0;
      while (this.pos < t.length) {
        const ch = t.charCodeAt(this.pos);
        if (ch === 34) {
          this.skipString();
          continue;
        }
        if (ch === 123 || ch === 91) depth++;
        else if (ch === 125 || ch === 93) {
          depth--;
          if (depth === 0) {
            this.pos++;
            return;
          }
        }
        this.pos++;
      }
      throw new Error('unterminated container');
    }
    // A number, true, false or null: up to the next delimiter.
    while (this.pos < t.length) {
      const ch = t.charCodeAt(this.pos);
      if (ch === 44 || ch === 125 || ch === 93 || ch === 32 || ch === 9 || ch === 13 || ch === 10) return;
      this.pos++;
    }
  }
}
