// Deciding, before any parsing, whether a text is safe to hand to the markdown renderer.
//
// react-markdown (micromark) is recursive in the nesting of containers (3,000 nested `>` overflow
// the stack) and super-linear in several constructs (1,000 nested list levels take 42 s,
// `*a` repeated 20,000 times 1 s, many link brackets or reference definitions seconds). Agent
// messages are untrusted, so text past these bounds is shown as plain text instead. Every check
// is one pass over the text, and the text is measured before it is scanned.

export const MARKDOWN_LIMITS = {
  /** Past this many characters a message is shown as text: formatting it costs more than it helps. */
  maxChars: 100_000,
  /** Containers (blockquote `>`, list items) nested deeper than this. */
  maxDepth: 24,
  /** Reference definitions (`[id]: url`). */
  maxReferenceDefinitions: 100,
  /** Characters that open inline constructs the parser pairs up (`*`, `_`, `[`, `` ` ``, `<`, `|`), outside fenced code. */
  maxInlineDelimiters: 1500,
} as const;

export type PlainReason = 'too large to format' | 'too deeply nested to format' | 'too many link references to format' | 'too much inline markup to format';

const SPACE = 0x20;
const TAB = 0x09;
const NL = 0x0a;
const GT = 0x3e;

function isListBullet(c: number): boolean {
  return c === 0x2d /* - */ || c === 0x2a /* * */ || c === 0x2b; /* + */
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}
function isDelimiter(c: number): boolean {
  return c === 0x2a || c === 0x5f /* _ */ || c === 0x5b /* [ */ || c === 0x60 /* ` */ || c === 0x3c /* < */ || c === 0x7c; /* | */
}

/**
 * Why `text` must be shown as plain text rather than markdown, or null if it is safe to format.
 * Conservative: it may send harmless text to plain text (say, a list item line deep inside a
 * code block nested in a list), never dangerous text to the renderer.
 */
export function markdownRisk(text: string, limits: typeof MARKDOWN_LIMITS = MARKDOWN_LIMITS): PlainReason | null {
  if (text.length > limits.maxChars) return 'too large to format';
  const n = text.length;
  let references = 0;
  let delimiters = 0;
  // A top-level fenced code block: its lines are code, not markup.
  let fenceChar = 0;
  let fenceLength = 0;
  let i = 0;
  while (i < n) {
    const lineStart = i;
    let end = text.indexOf('\n', i);
    if (end === -1) end = n;

    // Leading spaces (a tab counts as 4 columns), for fences and indented list markers.
    let col = 0;
    let j = lineStart;
    while (j < end && isBlank(text.charCodeAt(j))) {
      col += text.charCodeAt(j) === TAB ? 4 : 1;
      j++;
    }
    const c0 = j < end ? text.charCodeAt(j) : NL;

    if (col <= 3 && (c0 === 0x60 || c0 === 0x7e) /* ` ~ */) {
      let run = 0;
      while (j + run < end && text.charCodeAt(j + run) === c0) run++;
      if (fenceChar !== 0) {
        if (c0 === fenceChar && run >= fenceLength && text.slice(j + run, end).trim() === '') fenceChar = 0;
        i = end + 1;
        continue;
      }
      // A backtick fence's info string may not hold a backtick (else it is inline code).
      if (run >= 3 && (c0 === 0x7e || text.slice(j + run, end).indexOf('`') === -1)) {
        fenceChar = c0;
        fenceLength = run;
        i = end + 1;
        continue;
      }
    }
    if (fenceChar !== 0) {
      i = end + 1;
      continue;
    }

    // Container prefixes: `>` and list markers, each one level; indentation before a marker
    // is nesting too (two columns a level, the narrowest a list allows).
    let depth = 0;
    let indent = col;
    for (;;) {
      const c = j < end ? text.charCodeAt(j) : NL;
      if (c === GT) {
        depth++;
        j++;
      } else if (isListBullet(c) && j + 1 < end && isBlank(text.charCodeAt(j + 1))) {
        depth++;
        j += 2;
      } else if (isDigit(c)) {
        let k = j;
        while (k < end && k - j < 10 && isDigit(text.charCodeAt(k))) k++;
        const after = k < end ? text.charCodeAt(k) : NL;
        if ((after === 0x2e || after === 0x29) /* . ) */ && (k + 1 >= end || isBlank(text.charCodeAt(k + 1)))) {
          depth++;
          j = k + 1;
        } else break;
      } else break;
      let spaces = 0;
      while (j < end && isBlank(text.charCodeAt(j))) {
        spaces += text.charCodeAt(j) === TAB ? 4 : 1;
        j++;
      }
      // Spaces past a marker beyond the usual one are indentation of what it contains.
      if (spaces > 1) indent += spaces - 1;
    }
    if (depth > 0) depth += Math.floor(indent / 2);
    if (depth > limits.maxDepth) return 'too deeply nested to format';

    if (j < end && text.charCodeAt(j) === 0x5b && text.slice(j, end).includes(']:')) {
      references++;
      if (references > limits.maxReferenceDefinitions) return 'too many link references to format';
    }
    for (let k = j; k < end; k++) {
      if (isDelimiter(text.charCodeAt(k))) delimiters++;
    }
    if (delimiters > limits.maxInlineDelimiters) return 'too much inline markup to format';
    i = end + 1;
  }
  return null;
}
