// Terminal output with ANSI escapes, read into styled spans in one pass.
//
// Written here rather than taken from anser: anser copies its list of active decorations for
// every span and never dedupes it, so `\e[1mx` repeated 100,000 times grows that list to 100,000
// and copies it 100,000 times (the tab runs out of memory). Here style is a fixed-size value, a
// span is emitted only when the style changes, and every escape is read in bounded time.

export interface AnsiStyle {
  fg: string | null;
  bg: string | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
}

export interface AnsiSpan {
  text: string;
  style: AnsiStyle;
}

const PLAIN: AnsiStyle = { fg: null, bg: null, bold: false, dim: false, italic: false, underline: false, inverse: false };

const BASIC = ['0, 0, 0', '187, 0, 0', '0, 187, 0', '187, 187, 0', '0, 0, 187', '187, 0, 187', '0, 187, 187', '255, 255, 255'];
const BRIGHT = ['85, 85, 85', '255, 85, 85', '0, 255, 0', '255, 255, 85', '85, 85, 255', '255, 85, 255', '85, 255, 255', '255, 255, 255'];
const CUBE = [0, 95, 135, 175, 215, 255];

function color256(n: number): string | null {
  if (!Number.isInteger(n) || n < 0 || n > 255) return null;
  if (n < 8) return BASIC[n] ?? null;
  if (n < 16) return BRIGHT[n - 8] ?? null;
  if (n < 232) {
    const i = n - 16;
    return `${CUBE[Math.floor(i / 36)]}, ${CUBE[Math.floor(i / 6) % 6]}, ${CUBE[i % 6]}`;
  }
  const g = 8 + (n - 232) * 10;
  return `${g}, ${g}, ${g}`;
}

function byte(n: number | undefined): number | null {
  return n !== undefined && Number.isInteger(n) && n >= 0 && n <= 255 ? n : null;
}

/** The style after one SGR sequence's parameters (`1;31`, `38;5;208`, ...). */
function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const s = { ...style };
  const codes = params === '' ? [0] : params.split(/[;:]/).map((p) => (p === '' ? 0 : Number(p)));
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] ?? 0;
    if (c === 0) Object.assign(s, PLAIN);
    else if (c === 1) s.bold = true;
    else if (c === 2) s.dim = true;
    else if (c === 3) s.italic = true;
    else if (c === 4) s.underline = true;
    else if (c === 7) s.inverse = true;
    else if (c === 21 || c === 22) {
      s.bold = false;
      s.dim = false;
    } else if (c === 23) s.italic = false;
    else if (c === 24) s.underline = false;
    else if (c === 27) s.inverse = false;
    else if (c >= 30 && c <= 37) s.fg = BASIC[c - 30] ?? null;
    else if (c >= 90 && c <= 97) s.fg = BRIGHT[c - 90] ?? null;
    else if (c === 39) s.fg = null;
    else if (c >= 40 && c <= 47) s.bg = BASIC[c - 40] ?? null;
    else if (c >= 100 && c <= 107) s.bg = BRIGHT[c - 100] ?? null;
    else if (c === 49) s.bg = null;
    else if (c === 38 || c === 48) {
      let value: string | null = null;
      if (codes[i + 1] === 5) {
        value = color256(codes[i + 2] ?? -1);
        i += 2;
      } else if (codes[i + 1] === 2) {
        const r = byte(codes[i + 2]);
        const g = byte(codes[i + 3]);
        const b = byte(codes[i + 4]);
        value = r !== null && g !== null && b !== null ? `${r}, ${g}, ${b}` : null;
        i += 4;
      }
      if (c === 38) s.fg = value;
      else s.bg = value;
    }
  }
  return s;
}

function sameStyle(a: AnsiStyle, b: AnsiStyle): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.bold === b.bold && a.dim === b.dim && a.italic === b.italic && a.underline === b.underline && a.inverse === b.inverse;
}

const ESC = '\x1b';
/** An OSC string (`ESC ] ... BEL`) longer than this is not one: reading stops there, so a run of unterminated ones stays linear. */
const MAX_OSC = 4096;

/**
 * Styled spans of `text`. Escapes other than colours and text styles (cursor moves, titles,
 * clipboard writes) are dropped, never shown or acted on. Adjacent text of one style is one span;
 * past `maxSpans` the rest is one unstyled span, so what is drawn stays bounded.
 */
export function parseAnsi(text: string, maxSpans = 5000): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  let style = PLAIN;
  let pending: string[] = [];
  let pendingStyle = PLAIN;
  const flush = (): void => {
    if (pending.length === 0) return;
    const last = spans[spans.length - 1];
    const joined = pending.join('');
    pending = [];
    if (last && sameStyle(last.style, pendingStyle)) last.text += joined;
    else spans.push({ text: joined, style: pendingStyle });
  };
  const emit = (s: string): void => {
    if (s === '') return;
    if (!sameStyle(style, pendingStyle)) {
      flush();
      pendingStyle = style;
    }
    pending.push(s);
  };

  const n = text.length;
  let i = 0;
  while (i < n) {
    if (spans.length >= maxSpans) {
      // Enough spans to draw: the rest is shown as text, without its escapes.
      flush();
      spans.push({ text: stripAnsi(text.slice(i)), style: PLAIN });
      return spans;
    }
    const esc = text.indexOf(ESC, i);
    if (esc === -1) {
      emit(text.slice(i));
      break;
    }
    emit(text.slice(i, esc));
    i = esc + 1;
    const kind = text.charCodeAt(i);
    if (kind === 0x5b /* [ */) {
      // CSI: parameter bytes, intermediate bytes, one final byte.
      let j = i + 1;
      while (j < n && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x3f) j++;
      const paramsEnd = j;
      while (j < n && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
      const final = j < n ? text.charCodeAt(j) : -1;
      if (final >= 0x40 && final <= 0x7e) {
        if (final === 0x6d /* m */ && paramsEnd === j) style = applySgr(style, text.slice(i + 1, paramsEnd));
        i = j + 1;
      } else {
        // Not a complete sequence: drop what was read of it and go on from the byte that ended it.
        i = j;
      }
    } else if (kind === 0x5d /* ] */ || kind === 0x50 /* P */ || kind === 0x5f /* _ */ || kind === 0x5e /* ^ */) {
      // OSC, DCS, APC, PM: a string ended by BEL or ESC \.
      const limit = Math.min(n, i + 1 + MAX_OSC);
      let j = i + 1;
      while (j < limit && text.charCodeAt(j) !== 0x07 && !(text.charCodeAt(j) === 0x1b && text.charCodeAt(j + 1) === 0x5c)) j++;
      if (j < limit) i = text.charCodeAt(j) === 0x07 ? j + 1 : j + 2;
      else i = i + 1;
    } else if (i < n) {
      i += 1;
    }
  }
  flush();
  return spans;
}

/** `text` without its escape sequences. */
export function stripAnsi(text: string): string {
  return parseAnsi(text, Infinity)
    .map((s) => s.text)
    .join('');
}

/** How much terminal output is drawn until more is asked for. */
export const TERMINAL_TAIL_CHARS = 100_000;

/**
 * The end of a long output (where a command's result is), cut at a line start where one is near
 * so no escape sequence is split, and how many characters were left out.
 */
export function terminalTail(text: string, maxChars = TERMINAL_TAIL_CHARS): { text: string; omitted: number } {
  if (text.length <= maxChars) return { text, omitted: 0 };
  let start = text.length - maxChars;
  const nl = text.indexOf('\n', start);
  if (nl !== -1 && nl - start < 4096) start = nl + 1;
  return { text: text.slice(start), omitted: start };
}

/**
 * Styled spans cut into lines (a span that crosses a line end is cut there), for drawing an output
 * line by line. A last line left empty by a final newline is not a line.
 */
export function ansiLines(spans: readonly AnsiSpan[]): AnsiSpan[][] {
  const lines: AnsiSpan[][] = [[]];
  for (const span of spans) {
    const parts = span.text.split('\n');
    for (let k = 0; k < parts.length; k++) {
      if (k > 0) lines.push([]);
      const part = parts[k]!;
      if (part !== '') lines[lines.length - 1]!.push({ text: part, style: span.style });
    }
  }
  if (lines.length > 1 && lines[lines.length - 1]!.length === 0) lines.pop();
  return lines;
}
