// Test support: the non-blank lines of an input, counted apart from the reader, by the one
// definition of blank the reader also uses (CONTRACTS §1): only spaces, tabs, CRs and byte order
// marks. `trim()` is not it: a line of U+00A0 or a form feed is a (bad) record, not a blank line.
const BLANK = /^[ \t\r\uFEFF]*$/;

export function nonBlankLines(input: string | Uint8Array): number {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  return text.split('\n').filter((line) => !BLANK.test(line)).length;
}
