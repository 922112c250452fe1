// Times as agents write them: `2026-12-01T14:08:29.596Z`, on nearly every line of a native log.
// `Date.parse` reads any form and was 3% of reading a Claude Code log; this form is read by hand
// and every other (or a value this reading is not sure of) by `Date.parse`, which isoTime.test.ts
// holds it to.

const ZERO = 48;

/** `Date.parse(value)`, read by hand where `value` is `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function parseIsoTime(value: string): number {
  if (value.length !== 24 || value.charCodeAt(23) !== 90 /* Z */) return Date.parse(value);
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  const ms = digits(value, 20, 3);
  // Years before 100 (Date.UTC reads them as 19xx), days past 28 (not in every month), 24:00 and
  // anything not a digit where one belongs: Date.parse decides.
  if (
    year < 100 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0 ||
    value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(10) !== 84 ||
    value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58 || value.charCodeAt(19) !== 46
  ) {
    return Date.parse(value);
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** The number the `count` digits at `at` spell, or -1 when one is not a digit. */
function digits(value: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const digit = value.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}
