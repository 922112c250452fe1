// A streaming splitter for a top-level JSON array spread over many lines (Zed's pretty-printed
// "Copy All Messages" export). Each element becomes one record with the line it starts on, so a
// broken element is reported where it is and the elements around it still load.
//
// A JSON string cannot hold a raw newline, so a string still open at the end of a line is broken:
// its element is read on from the next line with the string closed, and ends at the first line
// indented no deeper than the element's first (where the next element or the array's end is), so
// one unterminated string costs one element, never every element after it.

import { utf8Length } from './utf8';

export interface ArrayElement {
  text: string;
  line: number;
  offset: number;
}

export class JsonArraySplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private active: 'container' | 'string' | 'scalar' | null = null;
  private parts: string[] = [];
  private startLine = 0;
  private startOffset = 0;
  /** Column of the element's first character on its first line. */
  private startColumn = 0;
  /** The element had a string open at the end of a line: it is bad, and ends by indentation. */
  private broken = false;
  private opened = false;
  /** True once the closing `]` was read; later lines are no longer part of the array. */
  closed = false;

  constructor(private readonly onElement: (element: ArrayElement) => void) {}

  /**
   * Feeds one line. Returns the index in `text` just after the closing `]` when the array closed
   * on this line (the caller treats the rest as ordinary input), else -1.
   */
  pushLine(text: string, line: number, offset: number): number {
    let segmentStart = this.active ? 0 : -1;
    let from = 0;
    if (this.active === 'container' && this.broken) {
      let column = 0;
      while (column < text.length && (text.charCodeAt(column) === 32 || text.charCodeAt(column) === 9)) column++;
      if (column < text.length && column <= this.startColumn) {
        const c = text.charCodeAt(column);
        if (column === this.startColumn && (c === 125 || c === 93)) {
          // The element's own closing bracket.
          this.finish(text.slice(0, column + 1));
          from = column + 1;
        } else {
          // The next element (or the array's end) begins: the broken one ended on the line before.
          this.finish('');
        }
        segmentStart = -1;
      }
    }
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.active === 'string' || (this.active === 'container' && this.inString)) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) {
          this.inString = false;
          if (this.active === 'string') {
            this.finish(text.slice(segmentStart, i + 1));
            segmentStart = -1;
          }
        }
        continue;
      }
      if (this.active === 'container') {
        if (c === 34) this.inString = true;
        else if (c === 123 || c === 91) this.depth++;
        else if (c === 125 || c === 93) {
          this.depth--;
          if (this.depth === 1) {
            this.finish(text.slice(segmentStart, i + 1));
            segmentStart = -1;
          }
        }
        continue;
      }
      if (this.active === 'scalar') {
        if (c === 44 || c === 93 || c === 32 || c === 9 || c === 13) {
          this.finish(text.slice(segmentStart, i));
          segmentStart = -1;
          // Re-read the delimiter at array level.
          i--;
        }
        continue;
      }
      // Between elements, at array level (or before the opening bracket).
      if (c === 32 || c === 9 || c === 13 || c === 44) continue;
      if (!this.opened) {
        if (c === 91) {
          this.opened = true;
          this.depth = 1;
          continue;
        }
        return i;
      }
      if (c === 93) {
        this.closed = true;
        return i + 1;
      }
      this.startLine = line;
      this.startOffset = offset + utf8Length(text, i);
      this.startColumn = i;
      segmentStart = i;
      if (c === 123 || c === 91) {
        this.active = 'container';
        this.depth = 2;
      } else if (c === 34) {
        this.active = 'string';
        this.inString = true;
      } else this.active = 'scalar';
    }
    if (this.active === 'string') {
      // A top-level string left open: it ends with its line.
      this.finish(text.slice(segmentStart));
    } else if (this.active && segmentStart >= 0) {
      this.parts.push(text.slice(segmentStart), '\n');
      if (this.inString) {
        this.broken = true;
        this.inString = false;
        this.escaped = false;
      }
    } else if (this.active === 'scalar') {
      // A scalar ends at the end of its line.
      this.finish('');
    }
    return -1;
  }

  /** At the end of input: an element still open is returned (truncated); otherwise null. */
  end(): ArrayElement | null {
    if (!this.active) return null;
    const element = { text: this.parts.join(''), line: this.startLine, offset: this.startOffset };
    this.active = null;
    this.parts = [];
    this.broken = false;
    return element;
  }

  private finish(tail: string): void {
    this.parts.push(tail);
    const text = this.parts.join('');
    this.parts = [];
    this.active = null;
    this.inString = false;
    this.escaped = false;
    this.broken = false;
    this.depth = 1;
    this.onElement({ text: text.trimEnd(), line: this.startLine, offset: this.startOffset });
  }
}
