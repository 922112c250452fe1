// What the CLI prints, and the md export (which people print), comes from the session file, which
// anyone may have written: a call id or an output line can hold escape sequences that set the
// terminal's title, write its clipboard (OSC 52), clear the screen or reorder text (bidi
// overrides). Printed text shows them escaped.

/**
 * C0 controls but newline and tab, DEL, C1 controls (8-bit CSI and OSC among them), the line and
 * paragraph separators, and the bidi embeddings, overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Line breaks too, for one value that must stay on its line. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNSAFE_IN_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (char: string): string => {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** Text for a terminal: every control character but newline and tab written as `\xNN` / `\uNNNN`. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** One line for a terminal: as `terminalSafe`, and newlines escaped too. */
export function terminalSafeLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escape);
}

/**
 * JSON text for a terminal: JSON.stringify escapes C0 controls but writes C1 controls, the
 * separators and bidi controls as they are; these are written as `\uNNNN` escapes (the same JSON).
 */
export function terminalSafeJson(json: string): string {
  return json.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
